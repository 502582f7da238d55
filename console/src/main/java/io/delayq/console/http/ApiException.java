package io.delayq.console.http;

/** A request the console refuses: an HTTP status, the field at fault (or null) and a message for a person. */
public class ApiException extends RuntimeException {
    private final int status;
    private final String field;
    private long retryAfterSeconds = -1;

    public ApiException(int status, String field, String message) {
        super(message);
        this.status = status;
        this.field = field;
    }

    public int status() {
        return status;
    }

    /** Sent as Retry-After (429). */
    public ApiException retryAfterSeconds(long seconds) {
        this.retryAfterSeconds = seconds;
        return this;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public String field() {
        return field;
    }

    public static ApiException badRequest(String field, String message) {
        return new ApiException(400, field, message);
    }

    public static ApiException notFound(String field, String message) {
        return new ApiException(404, field, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(403, null, message);
    }
}
