package io.delayq.images.build;

import io.delayq.images.podman.Podman;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The two ways examples/order-timeout-handler/README.md (step 6) puts the handler on the stock
 * worker image: its {@code Containerfile} built by podman, or its {@code jib} profile's image archive.
 */
public enum HandlerImageRecipe {
    /** {@code podman build} of the project's Containerfile on the worker image just built. */
    CONTAINERFILE("/app/handlers", "order-timeout-handler.jar") {
        @Override
        public String image(Podman podman, Path project, String workerImage, String tag, Path scratch) throws Exception {
            String id = HandlerImage.build(podman, project, workerImage, tag, scratch);
            if (!HandlerImage.build(podman, project, workerImage, tag, scratch).equals(id)) {
                throw new AssertionError("the same jar on the same worker image gave another image");
            }
            return tag;
        }
    },
    /**
     * {@code mvn package -Pjib} of the project (Jib's {@code packaged} mode into /app/handlers), which
     * .ci/run builds with the worker image just built as the base: the archive is loaded as it is.
     */
    JIB("/app/handlers/classpath", "order-timeout-handler.jar") {
        @Override
        public String image(Podman podman, Path project, String workerImage, String tag, Path scratch) {
            Path archive = project.resolve("target/jib-image.tar");
            assumeTrue(Files.isRegularFile(archive), () -> archive + " was not built: mvn package -Pjib"
                    + " -Ddelayq.worker.image=tar://<the worker image as a docker archive> (see .ci/run step 3)");
            return podman.load(archive);
        }
    };

    private final String handlerFolder;
    private final String handlerJar;

    HandlerImageRecipe(String handlerFolder, String handlerJar) {
        this.handlerFolder = handlerFolder;
        this.handlerJar = handlerJar;
    }

    /** Builds or loads the handler image and answers the name to run it by. */
    public abstract String image(Podman podman, Path project, String workerImage, String tag, Path scratch) throws Exception;

    /** The folder the recipe puts the handler jar in (the worker finds it through DELAYQ_HANDLER_PATH). */
    public String handlerFolder() {
        return handlerFolder;
    }

    public String handlerJar() {
        return handlerJar;
    }
}
