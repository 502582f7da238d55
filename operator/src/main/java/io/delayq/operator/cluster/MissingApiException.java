package io.delayq.operator.cluster;

/** The API server lacks an API the operator cannot work without; the message says which and what to do. */
public final class MissingApiException extends RuntimeException {
    public MissingApiException(String message) {
        super(message);
    }
}
