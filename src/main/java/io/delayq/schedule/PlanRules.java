package io.delayq.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The planner's decisions as pure functions of (definition, planner state, now): which occurrences to
 * enqueue ahead, which to fire at once, which the misfire policy skips, and the state afterwards.
 * No Redis here; {@link SchedulePlanner} carries the decisions out.
 *
 * @param horizon          occurrences up to now + horizon are enqueued ahead of time
 * @param misfireThreshold an occurrence later than this when planned is missed (the misfire policy
 *                         decides); a later one within it still fires, late (Quartz's misfireThreshold)
 * @param maxPerTurn       occurrences enqueued per schedule and turn (bounds every turn)
 */
public record PlanRules(Duration horizon, Duration misfireThreshold, int maxPerTurn) {
    /** Occurrences closer than this to now are enqueued after the planner won its turn, not ahead. */
    static final long LEAD_MILLIS = 1000;
    /** A backlog of missed occurrences is walked at most this far before jumping to its end. */
    static final int MAX_MISSED_SCAN = 10_000;

    public static PlanRules defaults() {
        return new PlanRules(Duration.ofMinutes(2), Duration.ofMinutes(1), 500);
    }

    /**
     * One planning step.
     *
     * @param ahead   occurrence instants to enqueue before the compare-and-set (not due yet; any planner may)
     * @param fireNow occurrence instants to enqueue only after winning the compare-and-set (due or about to be)
     * @param missed  occurrences the misfire policy skipped (or folded into one) in this step
     * @param late    occurrences in {@code fireNow} whose instant had passed by up to the misfire threshold
     */
    public record Plan(List<Long> ahead, List<Long> fireNow, long missed, long late, PlanState next) {
    }

    /** The state of a schedule no planner has seen: its occurrences start after its creation (or start). */
    public static PlanState fresh(StoredSchedule def) {
        return new PlanState(def.revision(), def.updatedAt(), def.updatedAt() + 1, -1, 0, 0, 0, def.raw());
    }

    /** Occurrences the old revision may have planned and not fired: those after {@code boundary}, up to its cursor. */
    public List<Long> retireCandidates(PlanState state, long boundary) {
        CronSchedule old = state.stored().definition();
        List<Long> out = new ArrayList<>();
        if (old.paused()) {
            return out;
        }
        long from = Math.max(boundary, state.since() - 1);
        old.times().between(Instant.ofEpochMilli(from), Instant.ofEpochMilli(state.cursor()), maxPerTurn * 4)
                .forEach(t -> out.add(t.toEpochMilli()));
        return out;
    }

    /**
     * The state for a changed definition once the old revision's future occurrences were cancelled.
     * New occurrences start after the change (or after the latest old one that had fired: none is
     * fired twice). After a pause the cursor stays where the pause left it: the occurrences in
     * between are missed and the new definition's misfire policy decides.
     *
     * @param latestFiredOld the latest old occurrence after the change that could not be cancelled (it ran), or -1
     */
    public PlanState retired(PlanState state, StoredSchedule def, long latestFiredOld) {
        boolean wasPaused = state.stored().definition().paused();
        long cursor = wasPaused ? state.cursor() : Math.max(def.updatedAt(), latestFiredOld);
        OccurrenceId last = state.lastFired(cursor);
        return new PlanState(def.revision(), cursor, cursor + 1, last == null ? -1 : last.epochMillis(),
                last == null ? 0 : last.revision(), state.missed(), state.late(), def.raw());
    }

    /**
     * When a planner must next look at the schedule (epoch ms): once its next occurrence after the
     * cursor comes within the horizon, and at the latest {@code maxIdle} after now — which bounds how
     * long a change that did not go through the index (a version before it) stays unseen. At or before
     * now when the last step stopped short of the horizon (its per-turn bound).
     */
    public long nextPlanning(StoredSchedule def, PlanState state, long now, Duration maxIdle) {
        long latest = now + maxIdle.toMillis();
        CronSchedule d = def.definition();
        if (d.paused()) {
            return latest;
        }
        long from = state.cursor();
        if (d.start() != null) {
            from = Math.max(from, d.start().toEpochMilli() - 1);
        }
        Optional<Instant> next = d.times().next(Instant.ofEpochMilli(from));
        if (next.isEmpty() || (d.end() != null && next.get().isAfter(d.end()))) {
            return latest;
        }
        return Math.min(latest, next.get().toEpochMilli() - horizon.toMillis());
    }

    /** The next step for an up-to-date state, or empty when nothing is due for planning. */
    public Optional<Plan> plan(StoredSchedule def, PlanState state, long now) {
        CronSchedule d = def.definition();
        if (d.paused()) {
            return Optional.empty();
        }
        CronTimes times = d.times();
        long from = state.cursor();
        if (d.start() != null) {
            from = Math.max(from, d.start().toEpochMilli() - 1);
        }
        long until = now + horizon.toMillis();
        if (d.end() != null) {
            until = Math.min(until, d.end().toEpochMilli());
        }
        long missBefore = now - misfireThreshold.toMillis();

        // missed: walk them (bounded), keeping only the latest few the policy may fire
        int keep = switch (d.misfirePolicy()) {
            case DO_NOTHING -> 0;
            case FIRE_ONCE_NOW -> 1;
            case FIRE_ALL_MISSED -> d.misfireLimit();
        };
        Deque<Long> kept = new ArrayDeque<>();
        long missedCount = 0;
        long cursor = from;
        Optional<Instant> t = times.next(Instant.ofEpochMilli(from));
        while (t.isPresent() && t.get().toEpochMilli() < missBefore && t.get().toEpochMilli() <= until) {
            long at = t.get().toEpochMilli();
            missedCount++;
            cursor = at;
            if (keep > 0) {
                kept.addLast(at);
                if (kept.size() > keep) {
                    kept.removeFirst();
                }
            }
            if (missedCount == MAX_MISSED_SCAN) {
                // a long outage of a frequent schedule: jump to the latest missed occurrence
                Optional<Instant> latest = times.previous(Instant.ofEpochMilli(Math.min(missBefore - 1, until)));
                if (latest.isPresent() && latest.get().toEpochMilli() > at) {
                    missedCount++;
                    cursor = latest.get().toEpochMilli();
                    if (keep > 0) {
                        kept.addLast(cursor);
                        if (kept.size() > keep) {
                            kept.removeFirst();
                        }
                    }
                }
                t = times.next(Instant.ofEpochMilli(cursor));
                break;
            }
            t = times.next(t.get());
        }
        List<Long> fireNow = new ArrayList<>(kept);
        long skipped = missedCount - fireNow.size();
        long late = 0;
        List<Long> ahead = new ArrayList<>();
        while (t.isPresent() && t.get().toEpochMilli() <= until && fireNow.size() + ahead.size() < maxPerTurn) {
            long at = t.get().toEpochMilli();
            cursor = at;
            if (at <= now + LEAD_MILLIS) {
                fireNow.add(at);
                if (at < now) {
                    late++;
                }
            } else {
                ahead.add(at);
            }
            t = times.next(t.get());
        }
        if (cursor == state.cursor()) {
            return Optional.empty();
        }
        long since = state.since();
        long last = state.last();
        long lastRevision = state.lastRevision();
        if (skipped > 0) {
            // everything from the first occurrence enqueued in this step on is enqueued
            long firstEnqueued = !fireNow.isEmpty() ? fireNow.get(0) : !ahead.isEmpty() ? ahead.get(0) : cursor + 1;
            OccurrenceId before = state.lastFired(state.cursor());
            if (before != null) {
                last = before.epochMillis();
                lastRevision = before.revision();
            }
            since = firstEnqueued;
        }
        PlanState next = new PlanState(state.revision(), cursor, since, last, lastRevision, state.missed() + skipped,
                state.late() + late, state.definition());
        return Optional.of(new Plan(ahead, fireNow, skipped, late, next));
    }
}
