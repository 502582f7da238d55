package io.delayq.chaos.load;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Failed calls of a load thread by exception type (each one was sent again), for the report. */
final class FailureCounts {
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

    void count(RuntimeException e) {
        counts.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
    }

    Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }
}
