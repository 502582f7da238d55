package io.delayq.settings;

import io.delayq.DurationText;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A worker's variables by the contract's names, for those who start workers without the operator:
 * the test kit, the worker's own test harness, the demo, the chaos suite and the benchmarks. A value is
 * written as the worker reads it (a {@link Duration} as {@link DurationText#format}), so no builder
 * spells a variable or a duration its own way.
 */
public final class WorkerEnv {
    private final Map<String, String> values = new LinkedHashMap<>();

    private WorkerEnv() {
    }

    /** The three variables every worker needs. */
    public static WorkerEnv of(String redisUrl, String queue, int shards) {
        return new WorkerEnv().set(WorkerSettings.REDIS_URL, redisUrl).set(WorkerSettings.QUEUE, queue).set(WorkerSettings.SHARDS, shards);
    }

    /** Sets (or, with {@code null}, removes) one variable. */
    public WorkerEnv set(Setting setting, Object value) {
        if (value == null) {
            values.remove(setting.name());
        } else {
            values.put(setting.name(), value instanceof Duration d ? DurationText.format(d) : String.valueOf(value));
        }
        return this;
    }

    /** A new mutable map of the variables, for callers that add their own on top. */
    public Map<String, String> toMap() {
        return new HashMap<>(values);
    }
}
