package io.delayq.handler;

import java.nio.charset.StandardCharsets;

/**
 * How far a running task has got, for whoever looks at it ({@code delayq inspect}, the console's task
 * page, the clients' {@code inspect}): a percentage and a short note, e.g. {@code report(40, "4,000 of
 * 10,000 rows")}. Reached through {@link Task#progress()}.
 * <p>
 * The worker keeps the latest report with the in-flight task and removes it when the task is settled
 * (acked, retried, dead-lettered) or its lease expires. Reports are cheap to make: the worker writes at
 * most one per task per second to Redis (the latest wins; a report made just before the handler returns
 * may never be written), so a handler may report from a tight loop. A report that cannot be written
 * (Redis is away, the lease was lost) is dropped; it never fails the task.
 */
public interface Progress {
    /** The largest note, in UTF-8 bytes. */
    int MAX_NOTE_BYTES = 200;

    /** Progress of a task that runs outside a worker (a handler's own unit test): checked, then forgotten. */
    Progress DISCARDED = (percent, note) -> check(percent, note);

    /**
     * Reports how far the task has got.
     *
     * @param percent 0 to 100 (a fraction is kept)
     * @param note    at most {@link #MAX_NOTE_BYTES} bytes of UTF-8, or null for none
     * @throws IllegalArgumentException when {@code percent} is not a number from 0 to 100 or {@code note} is too long;
     *                                  nothing is reported then
     */
    void report(double percent, String note);

    /** {@link #report(double, String)} without a note. */
    default void report(double percent) {
        report(percent, null);
    }

    /**
     * The rules of {@link #report(double, String)}.
     *
     * @throws IllegalArgumentException naming the argument and the rule it breaks
     */
    static void check(double percent, String note) {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("progress percent: must be a number from 0 to 100, was " + percent);
        }
        if (note != null) {
            int bytes = note.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_NOTE_BYTES) {
                throw new IllegalArgumentException("progress note: must be at most " + MAX_NOTE_BYTES
                        + " bytes of UTF-8, was " + bytes + " bytes");
            }
        }
    }
}
