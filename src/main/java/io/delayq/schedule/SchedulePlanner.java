package io.delayq.schedule;

import io.delayq.client.AsyncDelayQueueClient;
import io.delayq.client.DelayQueueClient;
import io.delayq.redis.Replies;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One planning turn over every schedule of a queue. Any number of planners may run turns at the same
 * time; the outcome is as if one did:
 * <ol>
 *   <li>occurrences not due yet are enqueued first, with {@link DuplicatePolicy#FUTURE_ONLY}: planners
 *       racing on the same occurrence add it once (deterministic id), and one that stalled cannot add
 *       an occurrence that already fired (the enqueue script refuses a due time that is not ahead of
 *       Redis' clock);</li>
 *   <li>the planner state advances by compare-and-set; the winner alone then enqueues what is due now
 *       (late occurrences, misfires): those are never enqueued twice;</li>
 *   <li>a planner that lost the compare-and-set to a definition change cancels what it added in step 1.</li>
 * </ol>
 * A planner that dies between 1 and 2 leaves enqueued occurrences that the next turn finds as
 * duplicates; one that dies between 2 and 3's "fire now" enqueue loses those due-now occurrences (never
 * fires them twice). An edit, pause or remove retires the old revision: its occurrences after the
 * change are cancelled (only not-yet-claimed ones can be: one that runs already counts as fired).
 */
public final class SchedulePlanner {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulePlanner.class);

    private final AsyncDelayQueueClient tasks;
    private final ScheduleStore store;
    private final PlanRules rules;
    private final Duration timeout;

    public SchedulePlanner(AsyncDelayQueueClient tasks, ScheduleStore store, PlanRules rules, Duration timeout) {
        this.tasks = tasks;
        this.store = store;
        this.rules = rules;
        this.timeout = timeout;
    }

    /** What one turn did, summed over the schedules, and each schedule's result. */
    public record Turn(long now, int schedules, int enqueued, long missed, long late, int cancelled, int stale, int failed,
                       Map<String, Result> results) {
    }

    /**
     * One schedule after a turn: its definition, the planner state as this planner last saw it (null
     * when a concurrent planner moved it first or the schedule is gone) and what this planner did.
     */
    public record Result(StoredSchedule definition, PlanState state, int enqueued, long missed, long late) {
    }

    /** One turn at Redis' time. */
    public Turn turn() {
        return turn(store.serverNow());
    }

    /** One turn with the given notion of now (epoch ms); tests move it, Redis' TIME stays the enqueue fence. */
    public Turn turn(long now) {
        Map<String, String> defs = store.definitions();
        Map<String, String> states = store.states();
        TreeSet<String> names = new TreeSet<>(defs.keySet());
        names.addAll(states.keySet());
        Counters c = new Counters();
        Map<String, Result> after = new java.util.TreeMap<>();
        for (String name : names) {
            try {
                long enqueued = c.enqueued;
                long missed = c.missed;
                long late = c.late;
                PlanState s = step(name, defs.get(name), states.get(name), now, c);
                if (defs.get(name) != null) {
                    after.put(name, new Result(StoredSchedule.parse(defs.get(name)), s, (int) (c.enqueued - enqueued),
                            c.missed - missed, c.late - late));
                }
            } catch (RuntimeException e) {
                c.failed++;
                LOG.warn("planning schedule {} failed: {}", name, e.toString());
            }
        }
        return new Turn(now, defs.size(), c.enqueued, c.missed, c.late, c.cancelled, c.stale, c.failed, after);
    }

    private static final class Counters {
        int enqueued;
        long missed;
        long late;
        int cancelled;
        int stale;
        int failed;
    }

    /** @return the schedule's planner state after this step (null when it is gone or another planner moved it) */
    private PlanState step(String name, String rawDef, String rawState, long now, Counters c) {
        StoredSchedule def = rawDef == null ? null : StoredSchedule.parse(rawDef);
        PlanState state = rawState == null ? null : PlanState.parse(rawState);
        if (state == null) {
            PlanState fresh = PlanRules.fresh(def);
            if (!store.advance(name, rawDef, null, fresh.toJson())) {
                c.stale++;
                return null;
            }
            state = fresh;
            rawState = fresh.toJson();
        } else if (def == null || state.revision() != def.revision()) {
            long boundary = def == null ? now : def.updatedAt();
            long latestFired = -1;
            StoredSchedule old = state.stored();
            for (long at : rules.retireCandidates(state, boundary)) {
                CancelResult r = await(tasks.cancel(old.occurrence(at).id()));
                if (r == CancelResult.CANCELLED) {
                    c.cancelled++;
                } else if (at <= now) {
                    latestFired = Math.max(latestFired, at); // claimed (or acked) before the cancel came
                }
            }
            if (def == null) {
                if (!store.advance(name, null, rawState, null)) {
                    c.stale++;
                }
                return null;
            }
            PlanState retired = rules.retired(state, def, latestFired);
            if (!store.advance(name, rawDef, rawState, retired.toJson())) {
                c.stale++;
                return null;
            }
            state = retired;
            rawState = retired.toJson();
        }
        Optional<PlanRules.Plan> planned = rules.plan(def, state, now);
        if (planned.isEmpty()) {
            return state;
        }
        PlanRules.Plan plan = planned.get();
        List<String> added = new ArrayList<>();
        for (EnqueueResult r : enqueue(def, plan.ahead(), DuplicatePolicy.FUTURE_ONLY)) {
            if (r.added()) {
                added.add(r.id());
            }
        }
        if (!store.advance(name, rawDef, rawState, plan.next().toJson())) {
            c.stale++;
            String defNow = store.definition(name);
            String stateNow = store.state(name);
            boolean sameRevision = rawDef.equals(defNow) && stateNow != null && PlanState.parse(stateNow).revision() == def.revision();
            if (!sameRevision) {
                // the definition changed under us: what we added belongs to a revision that is retired
                for (String id : added) {
                    await(tasks.cancel(id));
                }
            }
            return null;
        }
        for (EnqueueResult r : enqueue(def, plan.fireNow(), DuplicatePolicy.REJECT)) {
            if (r.added()) {
                added.add(r.id());
            }
        }
        c.enqueued += added.size();
        c.missed += plan.missed();
        c.late += plan.late();
        if (plan.missed() > 0) {
            LOG.info("schedule {}: {} occurrence(s) missed, skipped by misfire policy {}", name, plan.missed(),
                    def.definition().misfirePolicy().wire());
        }
        return plan.next();
    }

    private List<EnqueueResult> enqueue(StoredSchedule def, List<Long> instants, DuplicatePolicy policy) {
        if (instants.isEmpty()) {
            return List.of();
        }
        CronSchedule d = def.definition();
        List<TaskSpec> specs = new ArrayList<>(instants.size());
        for (long at : instants) {
            specs.add(TaskSpec.of(def.occurrence(at).id()).at(Instant.ofEpochMilli(at)).payload(d.payload()).priority(d.priority()));
        }
        return await(tasks.enqueueAll(specs, policy));
    }

    private <T> T await(java.util.concurrent.CompletionStage<T> stage) {
        return Replies.await(stage, timeout);
    }
}
