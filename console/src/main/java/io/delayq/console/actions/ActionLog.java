package io.delayq.console.actions;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Every action taken, with who and what: one line on the {@code delayq.console.audit} logger (the
 * record that outlives the console) and the last 200 in memory for the console's own page.
 */
public final class ActionLog {
    private static final Logger AUDIT = LoggerFactory.getLogger("delayq.console.audit");
    private static final int KEEP = 200;

    public record Entry(long at, String who, String queue, String action, String target, String result) {
    }

    private final Deque<Entry> recent = new ArrayDeque<>();

    public void record(String who, String queue, String action, String target, String result) {
        Entry e = new Entry(System.currentTimeMillis(), who, queue, action, target, result);
        AUDIT.info("action={} queue={} who={} target={} result={}", action, queue, who, target, result);
        synchronized (recent) {
            recent.addFirst(e);
            while (recent.size() > KEEP) {
                recent.removeLast();
            }
        }
    }

    public List<Entry> recent() {
        synchronized (recent) {
            return new ArrayList<>(recent);
        }
    }
}
