package io.delayq.schedule;

import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Redis side of a queue's schedules: the three schedule scripts and the reads. Synchronous. */
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

    /** @param expectedRevision null: any; 0: the schedule must not exist yet */
    public PutResult put(CronSchedule schedule, Long expectedRevision) {
        List<Object> reply = Replies.await(scripts.<List<Object>>run(LuaScript.SCHEDULE_PUT, keys.both(),
                List.of(schedule.name(), schedule.toJson(), expectedRevision == null ? "" : String.valueOf(expectedRevision))), timeout);
        return new PutResult(schedule.name(), PutResult.Status.valueOf(((String) reply.get(0)).toUpperCase(Locale.ROOT)),
                (Long) reply.get(1), (Long) reply.get(2));
    }

    public boolean remove(String name) {
        Long n = Replies.await(scripts.<Long>run(LuaScript.SCHEDULE_REMOVE, List.of(keys.definitions()),
                List.of(CronSchedule.requireName(name))), timeout);
        return n == 1;
    }

    /** Compare-and-set of one schedule's planner state; "" stands for absent. */
    public boolean advance(String name, String expectedDefinition, String expectedState, String newState) {
        Long n = Replies.await(scripts.<Long>run(LuaScript.SCHEDULE_ADVANCE, keys.both(),
                List.of(name, nz(expectedDefinition), nz(expectedState), nz(newState))), timeout);
        return n == 1;
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
        List<String> t = Replies.await(redis.commands().time(), timeout);
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
