package io.delayq.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tuning aid ({@code -Dbench.threads=true}): CPU of this JVM's threads over a W1 drain, by thread name without its
 * number (handler threads, the Lettuce event loop, the acker, the claim loop, the harness), ms per 1,000 tasks, beside
 * the JIT compiler's and the collector's elapsed time (their threads are not Java threads).
 */
final class ThreadCpu {
    private static final boolean ON = Boolean.getBoolean("bench.threads");

    private ThreadCpu() {
    }

    /** CPU nanoseconds so far per thread id and name (empty when off). */
    static Map<String, Long> byName() {
        Map<String, Long> out = new TreeMap<>();
        if (!ON) {
            return out;
        }
        // the JVM's own threads are not in the thread list: the JIT compiler's and the collector's time, elapsed
        out.put("0/JIT compiling (elapsed)", ManagementFactory.getCompilationMXBean().getTotalCompilationTime() * 1_000_000L);
        out.put("0/GC (elapsed)", ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> g.getCollectionTime()).sum() * 1_000_000L);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (long id : mx.getAllThreadIds()) {
            var info = mx.getThreadInfo(id);
            long cpu = mx.getThreadCpuTime(id);
            if (info != null && cpu > 0) {
                out.put(id + "/" + info.getThreadName(), cpu);
            }
        }
        return out;
    }

    static void print(String subject, Map<String, Long> before, Map<String, Long> after, int tasks) {
        if (!ON) {
            return;
        }
        Map<String, Double> groups = new TreeMap<>();
        after.forEach((key, cpu) -> {
            String group = key.substring(key.indexOf('/') + 1).replaceAll("[-#]?\\d+", "");
            groups.merge(group, (cpu - before.getOrDefault(key, 0L)) / 1e6 * 1000 / tasks, Double::sum);
        });
        StringBuilder line = new StringBuilder("[threads] " + subject + " ms/1k:");
        groups.entrySet().stream().filter(e -> e.getValue() >= 0.05).sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> line.append(String.format(" %s %.2f;", e.getKey(), e.getValue())));
        System.out.println(line);
    }
}
