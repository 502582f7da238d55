package io.delayq.backlog;

import io.delayq.InvalidInputException;
import io.delayq.queue.QueueScope;
import io.delayq.script.LuaScript;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.IntStream;

import static io.delayq.redis.Replies.asLong;

/** The due forecast of a shard (forecast.lua; p3/forecast.lua on protocol 3), and of a queue over a range of shards, for autoscaling, metrics, the CLI and the console. */
public final class ForecastReader {
    /** More windows than a person reads or a policy needs; each costs a ZCOUNT per non-empty set. */
    public static final int MAX_WINDOWS = 16;

    private final QueueScope scope;

    public ForecastReader(QueueScope scope) {
        this.scope = scope;
    }

    /** @throws InvalidInputException when the windows are empty, too many, not positive or not ascending */
    public CompletionStage<DueForecast> forecast(int shard, List<Duration> windows) {
        List<String> args = arguments(windows);
        CompletionStage<List<Object>> reply = scope.buckets() != null ? scope.buckets().forecast(shard, args)
                : scope.scripts().run(LuaScript.FORECAST, scope.keys(shard).scriptKeys(), args);
        return reply.thenApply(r -> {
            List<DueWindow> counts = new ArrayList<>(windows.size());
            for (int i = 0; i < windows.size(); i++) {
                counts.add(new DueWindow(windows.get(i), asLong(r.get(2 + i))));
            }
            return new DueForecast(asLong(r.get(0)), asLong(r.get(1)), counts);
        });
    }

    /** The forecast over the given shards, read in parallel over the shared connection. */
    public CompletionStage<DueForecast> forecast(IntStream shards, List<Duration> windows) {
        arguments(windows);
        List<CompletableFuture<DueForecast>> all = shards.mapToObj(s -> forecast(s, windows).toCompletableFuture()).toList();
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(v -> DueForecast.combine(all.stream().map(CompletableFuture::join).toList()));
    }

    private static List<String> arguments(List<Duration> windows) {
        if (windows.isEmpty() || windows.size() > MAX_WINDOWS) {
            throw new InvalidInputException("windows", "must be 1 to " + MAX_WINDOWS + " durations, got " + windows.size());
        }
        List<String> args = new ArrayList<>(windows.size());
        long previous = 0;
        for (Duration w : windows) {
            long ms = w.toMillis();
            if (ms <= previous) {
                throw new InvalidInputException("windows", "must be positive and ascending, got " + windows);
            }
            previous = ms;
            args.add(String.valueOf(ms));
        }
        return args;
    }
}
