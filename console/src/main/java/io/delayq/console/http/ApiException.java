package io.delayq.console.http;

/** A request the console refuses: an HTTP status, the field at fault (or null) and a message for a person. */
public class ApiException extends RuntimeException {
    private final int status;
    private final String field;

    public ApiException(int status, String field, String message) {
        super(message);
        this.status = status;
        this.field = field;
    }

    public int status() {
        return status;
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
