package io.delayq.cli.task;

import io.delayq.cli.text.DurationConverter;
import io.delayq.cli.text.InstantConverter;
import io.delayq.cli.QueueConnection;
import io.delayq.task.PastDueTime;
import io.delayq.task.Schedule;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;

/** {@code --delay DURATION | --at INSTANT | --business-days N}: exactly one, as an exclusive argument group. */
public class DueTime {
    @Option(names = "--delay", paramLabel = "DURATION", converter = DurationConverter.class, required = true,
            description = "Due after this delay, measured on the Redis server's clock: 500ms, 30s, 5m, 2h, 14d or ISO-8601 (PT30S).")
    Duration delay;

    @Option(names = "--at", paramLabel = "INSTANT", converter = InstantConverter.class, required = true,
            description = "Due at this instant, ISO-8601 with a zone: 2026-12-01T10:00:00Z or 2026-12-01T11:00:00+01:00.")
    Instant at;

    @Option(names = "--business-days", paramLabel = "N", required = true,
            description = "Due at --time on the N-th business day of --calendar from now (0: the next business moment at --time).")
    Integer businessDays;

    /** Before the calendar is read: a business-day due time is computed once connected ({@link BusinessDue}). */
    Schedule schedule() {
        return at != null ? Schedule.at(at) : businessDays != null ? Schedule.now() : Schedule.after(delay);
    }

    /**
     * The notice for an {@code --at} already past on the Redis clock, else null. The protocol takes such a time (a
     * task due in the past is due now: backfills and late producers rely on it), but a person who typed a wrong year
     * learns that the task fires at once. Read before the write: a time that passes during the call fires at once
     * anyway and needs no notice.
     */
    String pastNotice(QueueConnection queue) {
        if (at == null) {
            return null;
        }
        long now = queue.serverNow();
        return PastDueTime.isPast(at.toEpochMilli(), now) ? "note: --at " + PastDueTime.notice(at.toEpochMilli(), now) : null;
    }
}
