package io.delayq.console.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's small rolling history: per queue, the samples of the last {@code window} ms
 * (360 points for an hour at 10 s). It lives in memory only; a restarted console starts empty,
 * and a Prometheus with the Grafana dashboard is the long-term record.
 */
public final class BacklogHistory {
    private final long windowMs;
    private final Map<String, Deque<Sample>> byQueue = new ConcurrentHashMap<>();

    public BacklogHistory(long windowMs) {
        this.windowMs = windowMs;
    }

    public void add(String queue, Sample s) {
        Deque<Sample> d = byQueue.computeIfAbsent(queue, q -> new ArrayDeque<>());
        synchronized (d) {
            d.addLast(s);
            while (!d.isEmpty() && d.peekFirst().at() < s.at() - windowMs) {
                d.removeFirst();
            }
        }
    }

    public List<Sample> of(String queue) {
        Deque<Sample> d = byQueue.get(queue);
        if (d == null) {
            return List.of();
        }
        synchronized (d) {
            return new ArrayList<>(d);
        }
    }

    public long windowMs() {
        return windowMs;
    }
}
