package io.delayq.images.build;

import io.delayq.images.podman.Podman;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The example handler's image: its project's {@code Containerfile} ({@code FROM} the stock worker
 * image, the handler jar into {@code /app/handlers}) built by {@code podman build}, OCI format,
 * with every timestamp set to 0 so that the same jar on the same worker image gives the same image.
 */
public final class HandlerImage {
    private HandlerImage() {
    }

    /** The example project, or the test is skipped when its jar was not built. */
    public static Path requireProject() {
        String dir = System.getProperty("delayq.example.handler");
        assumeTrue(dir != null, "delayq.example.handler is not set: run through Maven (images/pom.xml passes it)");
        Path project = Path.of(dir).normalize();
        assumeTrue(Files.isRegularFile(project.resolve("target/order-timeout-handler.jar")),
                () -> project + "/target/order-timeout-handler.jar was not built (mvn package of examples/order-timeout-handler)");
        return project;
    }

    /** Builds the image and answers its id. */
    public static String build(Podman podman, Path project, String workerImage, String tag, Path scratch) throws Exception {
        Path idFile = Files.createTempFile(scratch, "iid", ".txt");
        podman.check(List.of("podman", "build", "--format", "oci", "--timestamp", "0",
                "--build-arg", "DELAYQ_WORKER_IMAGE=" + workerImage, "--iidfile", idFile.toString(),
                "-t", tag, "-f", project.resolve("Containerfile").toString(), project.toString()), Duration.ofMinutes(5));
        return Files.readString(idFile).strip();
    }
}
