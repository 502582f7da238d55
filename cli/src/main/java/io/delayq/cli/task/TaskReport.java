package io.delayq.cli.task;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.delayq.DurationText;
import io.delayq.cli.text.Instants;
import io.delayq.completion.CompletionRecord;
import io.delayq.presence.InFlightLease;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskProgress;
import io.delayq.task.TaskRecord;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The on-call checklist for one task in one answer: where it is, when it is due, what went wrong
 * and what to do next. Built from one atomic {@code inspect} script call; times against the Redis clock.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskReport(String id, String queue, int shard, int shards, String state, String serverTime,
                         String dueAt, String dueAtLocal, Long overdueMillis,
                         String leaseExpiresAt, String leaseExpiresAtLocal, Boolean leaseExpired,
                         String diedAt, String diedAtLocal,
                         String leaseHolder, Progress progress, Completion completion, Integer priority, Integer attempts, String lastError, String payload, String record,
                         List<String> hints) {

    /**
     * What the handler of an in-flight task last reported: {@code percent} (0 to 100), {@code note} ("" when none),
     * and when it was written ({@code reportedAt}, UTC; {@code reportedAgo} against the Redis clock).
     */
    public record Progress(double percent, String note, String reportedAt, String reportedAgo) {
        static Progress of(TaskProgress p, long serverNow) {
            return p == null ? null : new Progress(p.percent(), p.note(), Instants.utc(p.at()),
                    DurationText.human(Math.max(0, serverNow - p.at())) + " ago");
        }

        /** {@code 40 % — 4,000 of 10,000 rows (reported 3s ago)} */
        String line() {
            return TaskProgress.percentText(percent) + " %" + (note.isEmpty() ? "" : " — " + note) + " (reported " + reportedAgo + ")";
        }
    }

    /**
     * The completion record kept after the task's ack while the queue keeps results (its own when the state is
     * succeeded, an earlier run's beside a task enqueued again): when it finished (UTC and local), after how many
     * attempts, by which worker, how long its handler ran, its result and whether that was cut at 1 KiB.
     */
    public record Completion(String finishedAt, String finishedAtLocal, int attempts, String worker, long handlerMillis,
                             String result, boolean resultTruncated) {
        static Completion of(CompletionRecord c, ZoneId zone) {
            return c == null ? null : new Completion(Instants.utc(c.finishedAt().toEpochMilli()),
                    Instants.local(c.finishedAt().toEpochMilli(), zone), c.attempts(), c.workerId(), c.handlerTime().toMillis(),
                    c.result(), c.truncated());
        }

        /** {@code 2026-12-03 10:00:00 CET (2026-12-03T09:00:00Z) after 2 attempts, by worker w-1 (handler 35 ms)} */
        String line() {
            return finishedAtLocal + " (" + finishedAt + ") after " + attempts + (attempts == 1 ? " attempt" : " attempts")
                    + (worker.isEmpty() ? "" : ", by worker " + worker) + " (handler " + handlerMillis + " ms)";
        }
    }

    /** @param lease who runs the task, from the presence registry; null unless the task is in flight */
    static TaskReport of(TaskInfo t, InFlightLease lease, String queue, int shards, ZoneId zone) {
        long now = t.serverNow();
        List<String> hints = new ArrayList<>();
        String dueAt = null, dueLocal = null, leaseAt = null, leaseLocal = null, diedAt = null, diedLocal = null;
        Long overdue = null;
        Boolean leaseExpired = null;
        switch (t.state()) {
            case SCHEDULED -> {
                dueAt = Instants.utc(t.score());
                dueLocal = Instants.local(t.score(), zone);
                overdue = Math.max(0, now - t.score());
                if (t.overdue()) {
                    hints.add("due " + DurationText.human(now - t.score()) + " ago and not claimed yet: is a worker running for shard "
                            + t.shard() + "? ('delayq stats' shows the due backlog per shard; the worker's /readyz and logs tell why)");
                } else {
                    hints.add("waiting for its due time (" + Instants.relative(t.score(), now) + "); nothing to do");
                }
            }
            case IN_FLIGHT -> {
                leaseAt = Instants.utc(t.score());
                leaseLocal = Instants.local(t.score(), zone);
                leaseExpired = lease.expired();
                // the console's task page says the same (core's InFlightLease)
                hints.add(lease.summary());
            }
            case DEAD -> {
                diedAt = Instants.utc(t.score());
                diedLocal = Instants.local(t.score(), zone);
                hints.add("dead since " + DurationText.human(now - t.score()) + " after " + t.attempts() + " attempt(s): fix the cause, then "
                        + "'delayq dead replay " + t.id() + "' (or 'delayq dead purge " + t.id() + "' to drop it)");
            }
            case SUCCEEDED -> hints.add("succeeded " + DurationText.human(Math.max(0, now - t.score())) + " ago; nothing to do");
            case UNKNOWN -> hints.add("no task '" + t.id() + "' in queue '" + queue + "' (shard " + t.shard() + " of " + shards
                    + "): it was acked after it fired, cancelled, purged or trimmed from the dead letters, or never enqueued; "
                    + "check the id and --queue (a finished task is kept only while the queue keeps results: DELAYQ_RESULTS_KEEP)");
        }
        boolean known = t.state() != TaskInfo.State.UNKNOWN && t.state() != TaskInfo.State.SUCCEEDED;
        String payload = null;
        if (known) {
            try {
                payload = TaskRecord.decode(t.rawRecord()).payload();
            } catch (TaskRecord.MalformedRecordException e) {
                hints.add("the stored record is not valid delayq JSON (" + e.getMessage() + "); a worker dead-letters such a task");
            }
            if (t.rawRecord() == null) {
                hints.add("no record: written by a bare ZADD (id only, empty payload)");
            }
        }
        return new TaskReport(t.id(), queue, t.shard(), shards, stateName(t.state()), Instants.utc(now),
                dueAt, dueLocal, overdue, leaseAt, leaseLocal, leaseExpired, diedAt, diedLocal,
                lease == null || lease.holder() == null ? null : lease.holder().id(), Progress.of(t.progress(), now), Completion.of(t.completion(), zone),
                known ? t.priority() : null, known || t.state() == TaskInfo.State.SUCCEEDED ? t.attempts() : null,
                known ? t.lastError() : null, payload, known ? t.rawRecord() : null, hints);
    }

    static String stateName(TaskInfo.State s) {
        return switch (s) {
            case SCHEDULED -> "scheduled";
            case IN_FLIGHT -> "in_flight";
            case DEAD -> "dead";
            case SUCCEEDED -> "succeeded";
            case UNKNOWN -> "unknown";
        };
    }
}
