package io.delayq.schedule;

import io.delayq.InvalidInputException;
import io.delayq.client.AsyncDelayQueueClient;
import io.delayq.client.DelayQueueClient;
import io.delayq.redis.Replies;
import io.delayq.task.TaskInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The recurring schedules of one queue, for applications, the CLI and the operator:
 * <pre>
 * Schedules.of(client).put(CronSchedule.of("close-books", "5 0 * * *").timeZone("Asia/Shanghai").payload("{}"));
 * </pre>
 * Definitions live in Redis (the one truth); the workers' planners turn them into tasks.
 */
public final class Schedules {
    private static final int RMW_ATTEMPTS = 5;

    private final AsyncDelayQueueClient tasks;
    private final ScheduleStore store;
    private final Duration timeout;

    public Schedules(AsyncDelayQueueClient tasks, ScheduleStore store, Duration timeout) {
        this.tasks = tasks;
        this.store = store;
        this.timeout = timeout;
    }

    public static Schedules of(DelayQueueClient client) {
        return new Schedules(client.async(), new ScheduleStore(client.redis(), client.protocol().queue(), timeoutOf(client)), timeoutOf(client));
    }

    private static Duration timeoutOf(DelayQueueClient client) {
        return client.timeout();
    }

    public ScheduleStore store() {
        return store;
    }

    /** Creates or replaces a definition; an identical definition is left alone (same revision). */
    public PutResult put(CronSchedule schedule) {
        return store.put(schedule, null);
    }

    public boolean remove(String name) {
        return store.remove(name);
    }

    public PutResult pause(String name) {
        return setPaused(name, true);
    }

    public PutResult resume(String name) {
        return setPaused(name, false);
    }

    private PutResult setPaused(String name, boolean paused) {
        for (int i = 0; i < RMW_ATTEMPTS; i++) {
            String raw = store.definition(CronSchedule.requireName(name));
            if (raw == null) {
                throw new InvalidInputException("name", "no schedule named \"" + name + "\" in queue " + tasks.queue());
            }
            StoredSchedule s = StoredSchedule.parse(raw);
            PutResult r = store.put(s.definition().paused(paused), s.revision());
            if (r.status() != PutResult.Status.CONFLICT) {
                return r;
            }
        }
        return new PutResult(name, PutResult.Status.CONFLICT, -1, -1);
    }

    public Optional<ScheduleStatus> get(String name) {
        String raw = store.definition(CronSchedule.requireName(name));
        if (raw == null) {
            return Optional.empty();
        }
        return Optional.of(status(StoredSchedule.parse(raw), store.state(name), store.serverNow()));
    }

    /** Every schedule with its next and last firing, by name. */
    public List<ScheduleStatus> list() {
        Map<String, String> defs = new TreeMap<>(store.definitions());
        Map<String, String> states = store.states();
        long now = store.serverNow();
        List<ScheduleStatus> out = new ArrayList<>(defs.size());
        defs.forEach((name, raw) -> out.add(status(StoredSchedule.parse(raw), states.get(name), now)));
        return out;
    }

    private ScheduleStatus status(StoredSchedule def, String rawState, long now) {
        return status(def, rawState == null ? null : PlanState.parse(rawState), now, this::outcomeOf);
    }

    /** The status from stored definition and state; {@code outcomes} looks up the last occurrence's task. */
    public static ScheduleStatus status(StoredSchedule def, PlanState state, long now,
                                        java.util.function.Function<String, ScheduleStatus.Outcome> outcomes) {
        CronSchedule d = def.definition();
        Instant next = null;
        if (!d.paused()) {
            long from = d.start() == null ? now : Math.max(now, d.start().toEpochMilli() - 1);
            next = d.times().next(Instant.ofEpochMilli(from)).filter(t -> d.end() == null || !t.isAfter(d.end())).orElse(null);
        }
        OccurrenceId last = state == null ? null : state.lastFired(now);
        ScheduleStatus.Outcome outcome = last == null ? ScheduleStatus.Outcome.NONE : outcomes.apply(last.id());
        boolean planned = state != null && state.revision() == def.revision();
        return new ScheduleStatus(d, def.revision(), Instant.ofEpochMilli(def.updatedAt()), next,
                last == null ? null : Instant.ofEpochMilli(last.epochMillis()), last == null ? null : last.id(), outcome,
                state == null ? 0 : state.missed(), state == null ? 0 : state.late(), planned);
    }

    private ScheduleStatus.Outcome outcomeOf(String id) {
        TaskInfo info = Replies.await(tasks.inspect(id), timeout);
        return switch (info.state()) {
            case SCHEDULED -> info.attempts() > 0 ? ScheduleStatus.Outcome.RETRYING : ScheduleStatus.Outcome.PENDING;
            case IN_FLIGHT -> ScheduleStatus.Outcome.RUNNING;
            case DEAD -> ScheduleStatus.Outcome.DEAD;
            case SUCCEEDED, UNKNOWN -> ScheduleStatus.Outcome.SUCCEEDED;
        };
    }

    /** A planner over these schedules (the worker runs one on a timer). */
    public SchedulePlanner planner(PlanRules rules) {
        return planner(rules, IndexRules.defaults());
    }

    /** A planner that finds the schedules to plan as {@code index} says (the benchmark's baseline reads every one). */
    public SchedulePlanner planner(PlanRules rules, IndexRules index) {
        return new SchedulePlanner(tasks, store, rules, index, timeout);
    }
}
