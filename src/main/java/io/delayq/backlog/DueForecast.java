package io.delayq.backlog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a queue (or one shard) will have to fire: for each coming window, how many waiting tasks fall due within
 * it, and when the next one is due. Unlike a reactive autoscaler's input, this is known before the tasks are due.
 *
 * @param at        the Redis time it was read at (epoch ms)
 * @param nextDueAt the due time of the next task not yet due (epoch ms), or -1 when nothing waits for a future time
 * @param windows   ascending by length; each counts the tasks due in (at, at + length]
 */
public record DueForecast(long at, long nextDueAt, List<DueWindow> windows) {
    /** The windows read unless a caller asks for others: the next minute, 5, 15 and 60 minutes. */
    public static final List<Duration> DEFAULT_WINDOWS = List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
            Duration.ofMinutes(60));

    public DueForecast {
        windows = List.copyOf(windows);
    }

    public OptionalLong nextDue() {
        return nextDueAt < 0 ? OptionalLong.empty() : OptionalLong.of(nextDueAt);
    }

    /** @return the tasks due within {@code length} from {@link #at} */
    public long dueWithin(Duration length) {
        return windows.stream().filter(w -> w.length().equals(length)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no window of " + length + " in this forecast (it has "
                        + windows.stream().map(DueWindow::length).toList() + ")"))
                .tasks();
    }

    /**
     * The queue's forecast from its shards' (all read with the same windows): counts add up, the next due time is
     * the earliest, and the time is the latest of the shards' clocks.
     */
    public static DueForecast combine(List<DueForecast> shards) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no shard forecast to combine");
        }
        List<DueWindow> first = shards.get(0).windows();
        long[] tasks = new long[first.size()];
        long at = 0;
        long next = -1;
        for (DueForecast s : shards) {
            if (s.windows().size() != first.size()) {
                throw new IllegalArgumentException("shard forecasts of different windows cannot be combined");
            }
            for (int i = 0; i < tasks.length; i++) {
                tasks[i] += s.windows().get(i).tasks();
            }
            at = Math.max(at, s.at());
            if (s.nextDueAt() >= 0 && (next < 0 || s.nextDueAt() < next)) {
                next = s.nextDueAt();
            }
        }
        List<DueWindow> windows = new ArrayList<>(tasks.length);
        for (int i = 0; i < tasks.length; i++) {
            windows.add(new DueWindow(first.get(i).length(), tasks[i]));
        }
        return new DueForecast(at, next, windows);
    }
}
