package io.delayq.operator.redis;

/** Redis could not answer: refused connection, time-out, authentication failure. */
public final class RedisUnavailableException extends RuntimeException {
    public RedisUnavailableException(Throwable cause) {
        super(cause == null ? "unknown error" : cause.getMessage(), cause);
    }

    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
