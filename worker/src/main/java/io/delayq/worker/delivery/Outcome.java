package io.delayq.worker.delivery;

import io.delayq.handler.RetryLater;
import io.delayq.handler.PermanentFailure;
import java.time.Duration;

/** What became of one delivery. */
public sealed interface Outcome {
    record Done() implements Outcome {
    }

    /** Retry; {@code after} is null to use the backoff policy. */
    record Retry(String error, Duration after) implements Outcome {
    }

    record Dead(String error) implements Outcome {
    }

    /** Not run: the task was not started by its {@code expiresAt}; dead-lettered with {@code reason}, or discarded (acked). */
    record Expired(String reason, boolean discard) implements Outcome {
    }

    Outcome DONE = new Done();

    /** The outcome a handler's exception stands for. */
    static Outcome of(Throwable failure) {
        String text = describe(failure);
        if (failure instanceof PermanentFailure) {
            return new Dead(text);
        }
        if (failure instanceof RetryLater r) {
            return new Retry(text, r.after());
        }
        return new Retry(text, null);
    }

    static String describe(Throwable t) {
        String msg = t.getMessage();
        String text = t.getClass().getSimpleName() + (msg == null ? "" : ": " + msg);
        return text.length() > 1000 ? text.substring(0, 1000) + "…" : text;
    }
}
