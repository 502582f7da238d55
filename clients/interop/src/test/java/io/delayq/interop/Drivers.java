package io.delayq.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The driver scripts, copied from the test classpath to files the interpreters can run. */
final class Drivers {
    private Drivers() {
    }

    static synchronized Path path(String name) {
        try (InputStream in = Drivers.class.getResourceAsStream("/drivers/" + name)) {
            if (in == null) {
                throw new IllegalStateException("test resource drivers/" + name + " missing");
            }
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "delayq-interop-drivers-" + ProcessHandle.current().pid());
            Files.createDirectories(dir);
            Path file = dir.resolve(name);
            Files.write(file, in.readAllBytes());
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
