package io.delayq.operator.crd;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/** The committed CRD is exactly what the build generates from the Java model. */
class CrdFreshnessTest {

    @Test
    void committedCrdMatchesTheGeneratedOne() throws Exception {
        assertThat(CrdFiles.generated()).as("the crd-generator plugin's output").exists();
        String generated = Files.readString(CrdFiles.generated());
        String committed = Files.exists(CrdFiles.committed()) ? Files.readString(CrdFiles.committed()) : "";
        if (!generated.equals(committed)) {
            fail("crds/" + CrdFiles.NAME + " is out of date with the Java model in operator/src/main/java/io/delayq/operator/resource.\n"
                    + "Refresh it from the repository root with:\n"
                    + "  mvn -pl operator -am process-classes && cp operator/target/classes/META-INF/fabric8/" + CrdFiles.NAME + " crds/\n"
                    + "and commit the result.");
        }
    }
}
