package io.delayq.operator.crd;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the generated and the committed CRD and the example resources are. */
final class CrdFiles {
    static final String NAME = "delayqueues.delayq.io-v1.yml";

    private CrdFiles() {
    }

    /** Written by the crd-generator plugin in process-classes, before the tests run. */
    static Path generated() {
        return Path.of(System.getProperty("delayq.crd.generated", "target/classes/META-INF/fabric8/" + NAME));
    }

    /** The copy in the repository that users and the Helm chart install. */
    static Path committed() {
        return Path.of(System.getProperty("delayq.crd.committed", "../crds/" + NAME));
    }

    static Path examples() {
        return committed().resolveSibling("examples");
    }

    static Path corpus(String kind) {
        Path p = Path.of("src/test/resources/crd-corpus", kind);
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("run the tests from the operator module: " + p.toAbsolutePath() + " not found");
        }
        return p;
    }
}
