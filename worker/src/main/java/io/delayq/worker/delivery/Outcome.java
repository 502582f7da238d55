package io.delayq.worker.delivery;

import io.delayq.handler.RetryLater;
import io.delayq.handler.PermanentFailure;
import java.time.Duration;

/** What became of one delivery. */
public sealed interface Outcome {
    /** Done; {@code result} (null: none) is kept in the task's completion record while the queue keeps results. */
    record Done(String result) implements Outcome {
    }

    /** Retry; {@code after} is null to use the backoff policy. */
    record Retry(String error, Duration after) implements Outcome {
    }

    record Dead(String error) implements Outcome {
    }

    /** Not run: the task was not started by its {@code expiresAt}; dead-lettered with {@code reason}, or discarded (acked). */
    record Expired(String reason, boolean discard) implements Outcome {
    }

    Outcome DONE = new Done(null);

    /** Done with a short result (a handler's {@code task.result()}, a webhook's response body, a stream entry's id). */
    static Outcome done(String result) {
        return result == null ? DONE : new Done(result);
    }

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
