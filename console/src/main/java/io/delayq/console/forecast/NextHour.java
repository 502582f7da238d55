package io.delayq.console.forecast;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.DueWindow;
import io.delayq.backlog.ForecastReader;
import io.delayq.client.DelayQueueClient;
import io.delayq.redis.Replies;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A queue's coming hour as the console shows it: the tasks falling due in each 5-minute bin, and when the next
 * one is due. Read through core's {@link ForecastReader} (forecast.lua on every shard): the windows 5m, 10m, …,
 * 60m, whose neighbouring differences are the bins.
 */
public final class NextHour {
    public static final Duration BIN = Duration.ofMinutes(5);
    public static final Duration HORIZON = Duration.ofHours(1);
    /** 5m, 10m, …, 60m: window i counts the tasks due in (at, at + (i + 1) · 5m]. */
    static final List<Duration> WINDOWS = IntStream.rangeClosed(1, (int) (HORIZON.toMillis() / BIN.toMillis()))
            .mapToObj(i -> BIN.multipliedBy(i)).toList();

    static {
        if (WINDOWS.size() > ForecastReader.MAX_WINDOWS) {
            throw new IllegalStateException(WINDOWS.size() + " bins are more windows than forecast.lua reads in one call");
        }
    }

    private NextHour() {
    }

    /** The bins of the next hour over the queue's {@code shards} (the current layout's count). */
    public static Map<String, Object> read(DelayQueueClient queue, int shards, Duration timeout) {
        return bins(Replies.await(reader(queue).forecast(IntStream.range(0, shards), WINDOWS), timeout));
    }

    /** Only the next hour's total and the next due time (one window per shard): a row of the all-queues page. */
    public static Map<String, Object> summary(DelayQueueClient queue, int shards, Duration timeout) {
        DueForecast f = Replies.await(reader(queue).forecast(IntStream.range(0, shards), List.of(HORIZON)), timeout);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dueNextHour", f.dueWithin(HORIZON));
        out.put("nextDueAt", f.nextDueAt());
        return out;
    }

    private static ForecastReader reader(DelayQueueClient queue) {
        return new ForecastReader(queue.protocol().scope());
    }

    /**
     * The forecast's cumulative windows as bins: bin i holds the tasks due in (at + i · 5m, at + (i + 1) · 5m], the
     * difference of window i and window i - 1.
     *
     * @param f a forecast read with {@link #WINDOWS}
     */
    static Map<String, Object> bins(DueForecast f) {
        List<DueWindow> windows = f.windows();
        if (!windows.stream().map(DueWindow::length).toList().equals(WINDOWS)) {
            throw new IllegalArgumentException("a forecast of the windows " + WINDOWS + " is needed, got "
                    + windows.stream().map(DueWindow::length).toList());
        }
        List<Map<String, Object>> bins = new ArrayList<>(windows.size());
        long before = 0;
        long from = f.at();
        for (DueWindow w : windows) {
            Map<String, Object> bin = new LinkedHashMap<>();
            long to = f.at() + w.length().toMillis();
            bin.put("from", from);
            bin.put("to", to);
            bin.put("tasks", w.tasks() - before);
            bins.add(bin);
            before = w.tasks();
            from = to;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("at", f.at());
        out.put("binMs", BIN.toMillis());
        out.put("dueNextHour", before);
        out.put("nextDueAt", f.nextDueAt());
        out.put("bins", bins);
        return out;
    }
}
