package io.delayq.task;

import io.delayq.DurationText;

import java.time.Instant;

/**
 * A due time asked for that had already passed on the Redis clock. The protocol accepts it (a task due in the
 * past is simply due: late producers, replays and backfills rely on that) and the task fires at once; a person
 * who typed a wrong year must still learn it. The CLI and the console say it in these words.
 */
public final class PastDueTime {
    private PastDueTime() {
    }

    /** Whether {@code dueAt} was already past at {@code serverNow} (both epoch ms, Redis clock). */
    public static boolean isPast(long dueAt, long serverNow) {
        return dueAt < serverNow;
    }

    /** {@code 2020-01-01T00:00:00Z is in the past (6y … before Redis time …): the task is due now and fires at once}. */
    public static String notice(long dueAt, long serverNow) {
        return Instant.ofEpochMilli(dueAt) + " is in the past (" + DurationText.human(serverNow - dueAt) + " before the Redis time "
                + Instant.ofEpochMilli(serverNow) + "): the task is due now and fires at once";
    }
}
