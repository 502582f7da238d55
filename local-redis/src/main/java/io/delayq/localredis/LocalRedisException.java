package io.delayq.localredis;

/** A local redis-server could not be found, started or signalled. */
public class LocalRedisException extends IllegalStateException {
    public LocalRedisException(String message) {
        super(message);
    }

    public LocalRedisException(String message, Throwable cause) {
        super(message, cause);
    }
}
