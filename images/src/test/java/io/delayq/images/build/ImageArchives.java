package io.delayq.images.build;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The image archives the `image` profiles wrote (Jib's buildTar), as the pom passes their paths. */
public enum ImageArchives {
    WORKER("delayq.image.worker"),
    OPERATOR("delayq.image.operator");

    private final String property;

    ImageArchives(String property) {
        this.property = property;
    }

    /** The archive, or the test is skipped: the images are built only with -Pimage. */
    public Path require() {
        String value = System.getProperty(property);
        assumeTrue(value != null, property + " is not set: run through Maven (images/pom.xml passes it)");
        Path archive = Path.of(value).normalize();
        assumeTrue(Files.isRegularFile(archive), () -> archive + " was not built: build with -Pimage"
                + " (and -Dimage.base=... where the public base cannot be pulled; see docs/images.md)");
        return archive;
    }

    /** Jib's digest file beside the archive (sha256:... of the image manifest). */
    public Path digestFile() {
        return require().resolveSibling("jib-image.digest");
    }
}
