package io.delayq.schedule;

import io.delayq.client.AsyncDelayQueueClient;
import io.delayq.client.DelayQueueClient;
import io.delayq.redis.Replies;
import io.delayq.schedule.ScheduleStore.NextPlanning;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One planning turn over the schedules of a queue that are due for planning (the index
 * {@code dq:{q}:schedules:due}, see {@link IndexRules}). Any number of planners may run turns at the
 * same time; the outcome is as if one did:
 * <ol>
 *   <li>occurrences not due yet are enqueued first, with {@link DuplicatePolicy#FUTURE_ONCE}: planners
 *       racing on the same occurrence add it once (deterministic id), one that stalled cannot add
 *       an occurrence that already fired (the enqueue script refuses a due time that is not ahead of
 *       Redis' clock), and the shard's once-set remembers it: a planner that dies after adding it and
 *       before recording its turn leaves the occurrence to fire and the state behind it, and the next
 *       planner, finding it owed, enqueues it as a duplicate;</li>
 *   <li>the planner state advances by compare-and-set, together with the schedule's next planning
 *       time; the occurrences to fire at once (late ones, misfires) are written into that state as
 *       <em>owed</em>: of several planners one wins, and the winner's decision is recorded before
 *       anything is fired;</li>
 *   <li>the winner enqueues what it owes with {@link DuplicatePolicy#ONCE} and settles the state. A
 *       planner that dies before it settled leaves the debt in Redis: the next planner to read the state
 *       pays it, and the shard's once-set makes a second enqueue of an occurrence that was already
 *       enqueued (even fired and acked) a duplicate — each owed occurrence fires exactly once;</li>
 *   <li>a planner that lost the compare-and-set to a definition change cancels what it added in step 1.</li>
 * </ol>
 * An edit, pause or remove retires the old revision: its occurrences after the change are cancelled
 * (only not-yet-claimed ones can be: one that runs already counts as fired).
 */
public final class SchedulePlanner {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulePlanner.class);
    /** Owed occurrences older than this are dropped as missed: the once-set keeps ids a week (enqueue.lua). */
    static final long OWED_KEEP_MILLIS = Duration.ofDays(6).toMillis();

    /** Called between recording owed occurrences and enqueuing them; tests halt a planner there. */
    interface OwedHook {
        void recorded(String schedule, List<Long> owed);
    }

    /** Called between enqueuing occurrences ahead and recording the turn; tests halt a planner there. */
    interface AheadHook {
        void enqueued(String schedule, List<String> added);
    }

    private final AsyncDelayQueueClient tasks;
    private final ScheduleStore store;
    private final PlanRules rules;
    private final IndexRules index;
    private final Duration timeout;
    private volatile OwedHook owedHook = (schedule, owed) -> { };
    private volatile AheadHook aheadHook = (schedule, added) -> { };
    private boolean swept;

    public SchedulePlanner(AsyncDelayQueueClient tasks, ScheduleStore store, PlanRules rules, IndexRules index, Duration timeout) {
        this.tasks = tasks;
        this.store = store;
        this.rules = rules;
        this.index = index;
        this.timeout = timeout;
    }

    public SchedulePlanner(AsyncDelayQueueClient tasks, ScheduleStore store, PlanRules rules, Duration timeout) {
        this(tasks, store, rules, IndexRules.defaults(), timeout);
    }

    SchedulePlanner onAheadEnqueued(AheadHook hook) {
        this.aheadHook = hook;
        return this;
    }

    SchedulePlanner onOwedRecorded(OwedHook hook) {
        this.owedHook = hook;
        return this;
    }

    /**
     * What one turn did, summed over the schedules it planned, and each schedule's result.
     *
     * @param schedules how many schedules the turn looked at
     * @param full      it read every schedule (first turn, index incomplete, or not indexed)
     * @param gone      schedules it found removed (and retired)
     */
    public record Turn(long now, int schedules, int enqueued, long missed, long late, int cancelled, int stale, int failed,
                       Map<String, Result> results, boolean full, Set<String> gone) {
    }

    /**
     * One schedule after a turn: its definition, the planner state as this planner last saw it, and
     * what this planner did.
     *
     * @param freshUntil until then (epoch ms) this is the schedule's latest state: a planner plans it
     *                   again before (its next planning time plus half the horizon); a view older than
     *                   that may have been overtaken by another planner
     */
    public record Result(StoredSchedule definition, PlanState state, int enqueued, long missed, long late, long freshUntil) {
    }

    /** One turn at Redis' time. */
    public Turn turn() {
        return turn(store.serverNow());
    }

    /** One turn with the given notion of now (epoch ms); tests move it, Redis' TIME stays the enqueue fence. */
    public Turn turn(long now) {
        boolean full = !index.indexed() || !swept || store.indexIncomplete();
        Map<String, String> defs;
        Map<String, String> states;
        Map<String, Long> indexed;
        Collection<String> names;
        if (full) {
            defs = store.definitions();
            states = store.states();
            indexed = index.indexed() ? store.index() : Map.of();
            TreeSet<String> all = new TreeSet<>(defs.keySet());
            all.addAll(states.keySet());
            all.addAll(indexed.keySet());
            names = all;
        } else {
            names = take(now);
            defs = store.definitions(names);
            states = store.states(names);
            indexed = null;
        }
        Counters c = new Counters();
        Map<String, Result> after = new TreeMap<>();
        Set<String> gone = new TreeSet<>();
        for (String name : names) {
            if (defs.get(name) == null) {
                gone.add(name);
            }
            try {
                Result r = step(name, defs.get(name), states.get(name), indexed == null ? null : indexed.get(name), now, c);
                if (r != null) {
                    after.put(name, r);
                }
            } catch (RuntimeException e) {
                c.failed++;
                LOG.warn("planning schedule {} failed: {}", name, e.toString());
            }
        }
        swept = swept || (full && index.indexed());
        return new Turn(now, names.size(), c.enqueued, c.missed, c.late, c.cancelled, c.stale, c.failed, after, full, gone);
    }

    private List<String> take(long now) {
        List<String> out = new ArrayList<>();
        while (out.size() < index.maxPerTurn()) {
            List<String> batch = store.take(now, Math.min(index.batch(), index.maxPerTurn() - out.size()), now + index.lease().toMillis());
            out.addAll(batch);
            if (batch.size() < index.batch()) {
                break;
            }
        }
        return out;
    }

    private static final class Counters {
        int enqueued;
        long missed;
        long late;
        int cancelled;
        int stale;
        int failed;
    }

    /**
     * One schedule's step.
     *
     * @param indexed its next planning time in the index as a full turn read it (null: unknown, or taken)
     * @return what became of it (null when it is gone or another planner moved it first)
     */
    private Result step(String name, String rawDef, String rawState, Long indexed, long now, Counters c) {
        Tally t = new Tally();
        try {
            return step(name, rawDef, rawState, indexed, now, c, t);
        } finally {
            c.enqueued += t.enqueued; // also what a step that turned out stale enqueued
        }
    }

    private Result step(String name, String rawDef, String rawState, Long indexed, long now, Counters c, Tally t) {
        StoredSchedule def = rawDef == null ? null : StoredSchedule.parse(rawDef);
        PlanState state = rawState == null ? null : PlanState.parse(rawState);
        if (def == null && state == null) {
            if (index.indexed()) {
                store.advance(name, null, null, null, NextPlanning.DROP); // an index entry left behind
            }
            return null;
        }
        // each compare-and-set expects the exact string read (or last written), never a re-serialisation
        if (state != null && !state.owed().isEmpty()) {
            state = advanced(name, rawDef, rawState, pay(state, now, t), NextPlanning.LEAVE, c);
            rawState = state == null ? null : state.toJson();
        } else if (state == null) {
            state = advanced(name, rawDef, null, PlanRules.fresh(def), NextPlanning.LEAVE, c);
            rawState = state == null ? null : state.toJson();
        }
        if (state != null && (def == null || state.revision() != def.revision())) {
            state = retire(name, def, rawDef, state, rawState, now, c);
            rawState = state == null ? null : state.toJson();
        }
        return state == null ? null : plan(name, def, rawDef, state, rawState, indexed, now, c, t);
    }

    /** @return {@code next} when the compare-and-set from {@code rawState} wrote it; null when stale */
    private PlanState advanced(String name, String rawDef, String rawState, PlanState next, NextPlanning index, Counters c) {
        if (store.advance(name, rawDef, rawState, next.toJson(), index)) {
            return next;
        }
        c.stale++;
        return null;
    }

    /**
     * Cancels the old revision's occurrences after the change; the state for the new definition, or
     * null when the schedule is gone (its state deleted) or another planner moved first.
     */
    private PlanState retire(String name, StoredSchedule def, String rawDef, PlanState state, String rawState, long now, Counters c) {
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
            if (!store.advance(name, null, rawState, null, index.indexed() ? NextPlanning.DROP : NextPlanning.LEAVE)) {
                c.stale++;
            }
            return null;
        }
        return advanced(name, rawDef, rawState, rules.retired(state, def, latestFired), NextPlanning.LEAVE, c);
    }

    /** Plans an up-to-date state: ahead, compare-and-set with what is owed, then pays it. */
    private Result plan(String name, StoredSchedule def, String rawDef, PlanState state, String rawState, Long indexed, long now,
                        Counters c, Tally t) {
        Optional<PlanRules.Plan> planned = rules.plan(def, state, now);
        if (planned.isEmpty()) {
            long next = rules.nextPlanning(def, state, now, index.maxIdle());
            if (index.indexed() && (indexed == null || indexed != next)) {
                if (!store.advance(name, rawDef, rawState, rawState, NextPlanning.at(next))) {
                    c.stale++;
                    return null;
                }
            }
            return new Result(def, state, t.enqueued, 0, 0, freshUntil(next));
        }
        PlanRules.Plan plan = planned.get();
        List<String> added = new ArrayList<>();
        for (EnqueueResult r : enqueue(def, plan.ahead(), DuplicatePolicy.FUTURE_ONCE)) {
            if (r.added()) {
                added.add(r.id());
            }
        }
        aheadHook.enqueued(name, added);
        PlanState next = plan.next();
        long nextPlanning = rules.nextPlanning(def, next, now, index.maxIdle());
        PlanState recorded = plan.fireNow().isEmpty() ? next : next.owing(plan.fireNow(), now);
        NextPlanning indexWrite = !index.indexed() ? NextPlanning.LEAVE
                : plan.fireNow().isEmpty() ? NextPlanning.at(nextPlanning)
                // until it is settled, the debt is the next planner's, after the lease
                : NextPlanning.at(now + index.lease().toMillis());
        if (!store.advance(name, rawDef, rawState, recorded.toJson(), indexWrite)) {
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
        t.enqueued += added.size();
        c.missed += plan.missed();
        c.late += plan.late();
        if (plan.missed() > 0) {
            LOG.info("schedule {}: {} occurrence(s) missed, skipped by misfire policy {}", name, plan.missed(),
                    def.definition().misfirePolicy().wire());
        }
        if (!plan.fireNow().isEmpty()) {
            owedHook.recorded(name, plan.fireNow());
            PlanState settled = pay(recorded, now, t);
            // stale only when a planner that found the debt first settled it, or the definition changed meanwhile
            store.advance(name, rawDef, recorded.toJson(), settled.toJson(), index.indexed() ? NextPlanning.at(nextPlanning) : NextPlanning.LEAVE);
            next = settled;
        }
        return new Result(def, next, t.enqueued, plan.missed(), plan.late(), freshUntil(nextPlanning));
    }

    private long freshUntil(long nextPlanning) {
        return nextPlanning + rules.horizon().toMillis() / 2;
    }

    private static final class Tally {
        int enqueued;
    }

    /** Enqueues the occurrences a state owes (a second time is a duplicate) and returns the state settled. */
    private PlanState pay(PlanState state, long now, Tally t) {
        if (state.owedAt() < now - OWED_KEEP_MILLIS) {
            LOG.warn("schedule {}: {} owed occurrence(s) from {} dropped as missed (older than the once-set keeps ids)",
                    state.stored().definition().name(), state.owed().size(), Instant.ofEpochMilli(state.owedAt()));
            return state.settled(state.owed().size());
        }
        for (EnqueueResult r : enqueue(state.stored(), state.owed(), DuplicatePolicy.ONCE)) {
            if (r.added()) {
                t.enqueued++;
            }
        }
        return state.settled(0);
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
