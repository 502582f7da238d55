package io.delayq.operator.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A DelayQueue's PEM CA (from its Secret) as a file in the temporary directory, because core's
 * {@code RedisEndpoint} takes the CA as a file path. Lettuce re-reads the file at every (re)connect,
 * so it lives exactly as long as the connection that trusts it.
 */
final class CaFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CaFile.class);
    private final Path path;

    private CaFile(Path path) {
        this.path = path;
    }

    static CaFile write(String pem) {
        try {
            Path file = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                    ? Files.createTempFile("delayq-redis-ca-", ".pem", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile("delayq-redis-ca-", ".pem");
            Files.writeString(file, pem, StandardCharsets.UTF_8);
            return new CaFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Redis TLS CA to a temporary file (is the temporary directory writable?)", e);
        }
    }

    Path path() {
        return path;
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.debug("deleting {} failed", path, e);
        }
    }
}
