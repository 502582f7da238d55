package io.delayq.completion;

import java.time.Duration;
import java.time.Instant;

/**
 * What is kept of a task after its ack while the worker keeps results ({@link ResultRetention}): when it finished (the
 * Redis clock), after how many attempts, by which worker, how long its handler ran, and a short result — what the
 * handler set ({@code task.result().set(…)}), the start of a webhook's response body, a stream entry's id. Stored in
 * the shard's {@code done} hash as {@code <finished ms>|<attempts>|<handler ms>|<truncated 0/1>|<worker>|<result>}
 * (the result last: it may hold {@code |}).
 *
 * @param truncated the result was longer than {@link #RESULT_MAX_BYTES} and is its first bytes
 */
public record CompletionRecord(Instant finishedAt, int attempts, Duration handlerTime, String workerId, String result, boolean truncated) {
    /** The longest result kept, in bytes of UTF-8; a longer one is cut there (on a character boundary) and flagged. */
    public static final int RESULT_MAX_BYTES = 1024;

    /** The stored form, or null when {@code stored} is none (a foreign write is not a record either). */
    public static CompletionRecord parse(String stored) {
        if (stored == null) {
            return null;
        }
        String[] parts = stored.split("\\|", 6);
        if (parts.length < 6) {
            return null;
        }
        try {
            return new CompletionRecord(Instant.ofEpochMilli(Long.parseLong(parts[0])), Integer.parseInt(parts[1]),
                    Duration.ofMillis(Long.parseLong(parts[2])), parts[4], parts[5], parts[3].equals("1"));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** "succeeded at 2026-12-03T10:00:00.123Z after 2 attempts, by worker w-1 (handler 35 ms)". */
    public String summary() {
        return "succeeded at " + finishedAt + " after " + attempts + (attempts == 1 ? " attempt" : " attempts")
                + (workerId.isEmpty() ? "" : ", by worker " + workerId) + " (handler " + handlerTime.toMillis() + " ms)";
    }
}
