package io.delayq.bench;

import java.util.Comparator;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What Redis spent during one phase: CPU (used_cpu_sys + used_cpu_user), commands executed
 * (commandstats counts the commands a Lua script calls as well as the script call itself), and
 * how many of those were script calls (EVALSHA / EVAL).
 */
record RedisUsage(double cpuMillis, long commands, long scriptCalls, double seconds, Map<String, Long> byCommand, Map<String, Long> usecByCommand) {

    /** Microseconds Redis spent executing one command per task (for a script: the whole script). */
    double usecPerTask(String command, int tasks) {
        return (double) usecByCommand.getOrDefault(command, 0L) / tasks;
    }

    double cpuMillisPer1000(int tasks) {
        return tasks == 0 ? Double.NaN : cpuMillis * 1000.0 / tasks;
    }

    double commandsPerTask(int tasks) {
        return tasks == 0 ? Double.NaN : (double) commands / tasks;
    }

    /** The busiest commands, for the notes: "zadd 3.0, evalsha 0.2, ..." per task. */
    String top(int tasks, int limit) {
        return byCommand.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).limit(limit)
                .map(e -> String.format("%s %.2f", e.getKey(), (double) e.getValue() / tasks)).collect(Collectors.joining(", "));
    }
}
