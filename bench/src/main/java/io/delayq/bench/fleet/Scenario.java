package io.delayq.bench.fleet;

import java.time.Instant;

/**
 * A load to autoscale for: the tasks' due times, and the span a fleet is run and paid for (the same for every mode,
 * so replica-seconds compare).
 *
 * @param start epoch ms the fleet starts at (its first check)
 * @param end   epoch ms the run (and its bill) ends; every task is due before it
 * @param minReplicas the floor both modes get (0 lets the fleet scale to zero)
 * @param maxReplicas the ceiling both modes get
 */
public record Scenario(String name, String load, long start, long end, DueTimes tasks, int minReplicas, int maxReplicas) {
    public Scenario {
        if (tasks.size() > 0 && (tasks.first() < start || tasks.last() >= end)) {
            throw new IllegalArgumentException("scenario " + name + ": tasks must be due within its span " + Instant.ofEpochMilli(start)
                    + " .. " + Instant.ofEpochMilli(end));
        }
    }

    public double seconds() {
        return (end - start) / 1000.0;
    }
}
