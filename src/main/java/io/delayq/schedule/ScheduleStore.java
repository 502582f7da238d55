package io.delayq.schedule;

import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis side of a queue's schedules: the schedule scripts and the reads. Synchronous. Readers (the
 * CLI, the operator's status, the console) use {@link #definitions()} and {@link #states()}; the
 * planner reads only what {@link #take} hands it from the index of next planning times.
 */
public final class ScheduleStore {
    private final RedisEndpoint redis;
    private final ScriptRunner scripts;
    private final ScheduleKeys keys;
    private final Duration timeout;

    public ScheduleStore(RedisEndpoint redis, String queue, Duration timeout) {
        this.redis = redis;
        this.scripts = new ScriptRunner(redis.commands());
        this.keys = new ScheduleKeys(queue);
        this.timeout = timeout;
    }

    public ScheduleKeys keys() {
        return keys;
    }

    /** The queue's business calendars, on the same connection (schedules keep a copy of the one they name). */
    public io.delayq.calendar.Calendars calendars() {
        return new io.delayq.calendar.Calendars(redis, keys.queue(), timeout);
    }

    /** @param expectedRevision null: any; 0: the schedule must not exist yet */
    public PutResult put(CronSchedule schedule, Long expectedRevision) {
        List<Object> reply = Replies.await(scripts.<List<Object>>run(LuaScript.SCHEDULE_PUT, keys.all(),
                List.of(schedule.name(), schedule.toJson(), expectedRevision == null ? "" : String.valueOf(expectedRevision))), timeout);
        return new PutResult(schedule.name(), PutResult.Status.valueOf(((String) reply.get(0)).toUpperCase(Locale.ROOT)),
                (Long) reply.get(1), (Long) reply.get(2));
    }

    public boolean remove(String name) {
        Long n = Replies.await(scripts.<Long>run(LuaScript.SCHEDULE_REMOVE, List.of(keys.definitions(), keys.index()),
                List.of(CronSchedule.requireName(name))), timeout);
        return n == 1;
    }

    /** Compare-and-set of one schedule's planner state; "" stands for absent. The index is left alone. */
    public boolean advance(String name, String expectedDefinition, String expectedState, String newState) {
        return advance(name, expectedDefinition, expectedState, newState, NextPlanning.LEAVE);
    }

    /**
     * Compare-and-set of one schedule's planner state and, in the same script, its next planning time
     * in the index; "" stands for absent.
     */
    public boolean advance(String name, String expectedDefinition, String expectedState, String newState, NextPlanning next) {
        Long n = Replies.await(scripts.<Long>run(LuaScript.SCHEDULE_ADVANCE, keys.all(),
                List.of(name, nz(expectedDefinition), nz(expectedState), nz(newState), next.wire())), timeout);
        return n == 1;
    }

    /** What {@link #advance} does to the schedule's entry in the index. */
    public record NextPlanning(String wire) {
        public static final NextPlanning LEAVE = new NextPlanning("");
        public static final NextPlanning DROP = new NextPlanning("-");

        public static NextPlanning at(long epochMillis) {
            return new NextPlanning(String.valueOf(epochMillis));
        }
    }

    /**
     * Takes up to {@code limit} schedules due for planning at {@code now} (earliest first) and moves
     * them to {@code leaseUntil}, so that a concurrent planner does not take them too.
     */
    public List<String> take(long now, int limit, long leaseUntil) {
        List<Object> names = Replies.await(scripts.<List<Object>>run(LuaScript.SCHEDULE_TAKE, List.of(keys.index()),
                List.of(String.valueOf(now), String.valueOf(limit), String.valueOf(leaseUntil))), timeout);
        return names.stream().map(String.class::cast).toList();
    }

    /** The index: name → next planning time (epoch ms). */
    public Map<String, Long> index() {
        List<ScoredValue<String>> all = Replies.await(redis.commands().zrangeWithScores(keys.index(), 0, -1), timeout);
        Map<String, Long> out = new LinkedHashMap<>();
        all.forEach(v -> out.put(v.getValue(), (long) v.getScore()));
        return out;
    }

    /**
     * True when the index lacks schedules: written by a version before it, or lost. Two O(1) reads; a
     * planner that finds it incomplete plans every schedule once, which writes every one into it.
     */
    public boolean indexIncomplete() {
        var size = redis.commands().zcard(keys.index());
        var defs = redis.commands().hlen(keys.definitions());
        return Replies.await(size, timeout) < Replies.await(defs, timeout);
    }

    /** The definitions of the given schedules (absent ones left out). */
    public Map<String, String> definitions(Collection<String> names) {
        return hmget(keys.definitions(), names);
    }

    /** The planner states of the given schedules (absent ones left out). */
    public Map<String, String> states(Collection<String> names) {
        return hmget(keys.state(), names);
    }

    private Map<String, String> hmget(String key, Collection<String> names) {
        Map<String, String> out = new HashMap<>();
        if (names.isEmpty()) {
            return out;
        }
        List<KeyValue<String, String>> values = Replies.await(redis.commands().hmget(key, names.toArray(String[]::new)), timeout);
        values.forEach(kv -> {
            if (kv.hasValue()) {
                out.put(kv.getKey(), kv.getValue());
            }
        });
        return out;
    }

    public Map<String, String> definitions() {
        return Replies.await(redis.commands().hgetall(keys.definitions()), timeout);
    }

    public Map<String, String> states() {
        return Replies.await(redis.commands().hgetall(keys.state()), timeout);
    }

    public String definition(String name) {
        return Replies.await(redis.commands().hget(keys.definitions(), name), timeout);
    }

    public String state(String name) {
        return Replies.await(redis.commands().hget(keys.state(), name), timeout);
    }

    /** Redis server time in epoch ms: the planner's "now", as the scripts' TIME. */
    public long serverNow() {
        return Replies.millisOf(Replies.await(redis.commands().time(), timeout));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
