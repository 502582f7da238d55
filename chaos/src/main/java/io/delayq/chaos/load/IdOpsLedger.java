package io.delayq.chaos.load;

import io.delayq.chaos.recorder.Execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the cancels and reschedules by id did, with when each call was sent and when its answer came
 * (wall-clock ms of this machine, the clock the recorders write): the judge of "nothing fired early" and
 * "nothing fired after its cancel succeeded" for tasks whose due time moved or that were cancelled.
 * A call whose answer was lost (Redis restarting) is sent again until one comes; the whole span from the
 * first send to that answer counts as "in progress", when either outcome may hold.
 */
public final class IdOpsLedger {
    public enum Kind { CANCEL, RESCHEDULE }

    /**
     * @param outcome   {@code cancelled}, {@code gone} (a cancel answered "unknown" after an earlier send of it failed:
     *                  the first send removed the task, or it had run and been acked), {@code rescheduled}, or what
     *                  else the call answered ({@code inflight}, {@code unknown}, {@code dead}, {@code layout})
     * @param newDue    the due time a reschedule set (epoch ms), else 0
     */
    public record Op(Kind kind, long sentAt, long repliedAt, String outcome, long newDue) {
        boolean spans(long at) {
            return sentAt <= at && at <= repliedAt;
        }
    }

    private final Map<String, List<Op>> ops = new ConcurrentHashMap<>();

    public void record(String id, Op op) {
        ops.computeIfAbsent(id, k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(op);
    }

    private List<Op> of(String id) {
        List<Op> l = ops.get(id);
        if (l == null) {
            return List.of();
        }
        synchronized (l) {
            return List.copyOf(l);
        }
    }

    /**
     * The due time in force at {@code atMillis}: the last reschedule answered before it, else the enqueue's
     * due; {@code Long.MIN_VALUE} while a reschedule of the id was in progress (either due time may hold).
     */
    public long dueInForce(String id, long enqueueDue, long atMillis) {
        long due = enqueueDue;
        long answered = Long.MIN_VALUE;
        for (Op op : of(id)) {
            if (op.kind() != Kind.RESCHEDULE) {
                continue;
            }
            if (op.spans(atMillis)) {
                return Long.MIN_VALUE;
            }
            if ("rescheduled".equals(op.outcome()) && op.repliedAt() < atMillis && op.repliedAt() > answered) {
                answered = op.repliedAt();
                due = op.newDue();
            }
        }
        return due;
    }

    /** The due time after every reschedule (for the lag), and when it was set (0: never rescheduled). */
    public long[] finalDue(String id, long enqueueDue) {
        long due = enqueueDue;
        long at = 0;
        for (Op op : of(id)) {
            if (op.kind() == Kind.RESCHEDULE && "rescheduled".equals(op.outcome()) && op.repliedAt() > at) {
                at = op.repliedAt();
                due = op.newDue();
            }
        }
        return new long[]{due, at};
    }

    /** When a cancel answered that the task is gone ("cancelled", or "gone" after a lost answer); null if never. */
    public Long goneSince(String id) {
        Long since = null;
        for (Op op : of(id)) {
            if (op.kind() == Kind.CANCEL && ("cancelled".equals(op.outcome()) || "gone".equals(op.outcome()))
                    && (since == null || op.repliedAt() < since)) {
                since = op.repliedAt();
            }
        }
        return since;
    }

    /** Cancelled for certain: a cancel answered "cancelled" (the task must not run after that answer, and need not run). */
    public boolean cancelled(String id) {
        return of(id).stream().anyMatch(op -> op.kind() == Kind.CANCEL && "cancelled".equals(op.outcome()));
    }

    /** A cancel whose first answer was lost and whose resend found no task: cancelled by the first send, or already done. */
    public boolean maybeCancelled(String id) {
        return of(id).stream().anyMatch(op -> op.kind() == Kind.CANCEL && "gone".equals(op.outcome()));
    }

    /** Executions that started after a cancel of their task had answered that it was gone. */
    public List<Execution> firedAfterCancel(List<Execution> executions) {
        List<Execution> bad = new ArrayList<>();
        for (Execution e : executions) {
            Long gone = goneSince(e.id());
            if (gone != null && e.startMillis() > gone) {
                bad.add(e);
            }
        }
        return bad;
    }

    /** Calls per kind and outcome, e.g. {cancel cancelled=812, cancel inflight=3, reschedule rescheduled=790}. */
    public Map<String, Long> outcomes() {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (String id : ops.keySet()) {
            for (Op op : of(id)) {
                out.merge(op.kind().name().toLowerCase(java.util.Locale.ROOT) + " " + op.outcome(), 1L, Long::sum);
            }
        }
        return out;
    }

    public long count(Kind kind, String outcome) {
        return outcomes().getOrDefault(kind.name().toLowerCase(java.util.Locale.ROOT) + " " + outcome, 0L);
    }
}
