package io.delayq.operator.testing;

import java.nio.file.Path;

/** The CRD the build generated, for tests that install it in a (mock or real) cluster. */
public final class CrdPaths {

    private CrdPaths() {
    }

    public static Path generated() {
        return Path.of(System.getProperty("delayq.crd.generated", "target/classes/META-INF/fabric8/delayqueues.delayq.io-v1.yml"));
    }
}
