package io.delayq.bench.fleet;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.ForecastReader;
import io.delayq.backlog.StatsReader;
import io.delayq.client.DelayQueueClient;
import io.delayq.handler.TaskHandler;
import io.delayq.operator.autoscaling.ForecastPolicy;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.redis.Replies;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.config.WorkerConfig;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.stream.IntStream;

/**
 * The simulator's check, for real: a scenario's tasks in a real Redis, real in-process workers as the pods (started a
 * start-up delay after they are asked for, each with a handler that takes {@code handlerMs} at
 * {@code concurrency}), and the same decision loop: every check interval the range's due backlog (stats.lua) and
 * due forecast (forecast.lua, the windows {@link ForecastPolicy#windowsFor}) read as the operator reads them, then
 * the operator's decision. Lag is measured in the handler (its start − the task's due time), each task once.
 */
public final class LiveFleet {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long ENQUEUE_LEAD_MS = 5_000;
    private static final long FINISH_TIMEOUT_MS = 120_000;

    public record Settings(long startupMs, long checkIntervalMs, long checkPhaseMs, int shards, int concurrency, long handlerMs) {
    }

    private final String redisUrl;
    private final Settings settings;

    public LiveFleet(String redisUrl, Settings settings) {
        this.redisUrl = redisUrl;
        this.settings = settings;
    }

    /** Runs {@code scenarioAt} (a scenario placed at an origin, epoch ms) from a few seconds from now. */
    public FleetRun run(String queue, LongFunction<Scenario> scenarioAt, AutoscalingSpec policy, FleetSimulator.Trace trace) {
        long origin = System.currentTimeMillis() + ENQUEUE_LEAD_MS;
        Scenario scenario = scenarioAt.apply(origin);
        DueTimes due = scenario.tasks();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        long[] lags = new long[due.size()];
        AtomicInteger fired = new AtomicInteger();
        AtomicInteger repeats = new AtomicInteger();
        TaskHandler handler = task -> {
            long lag = System.currentTimeMillis() - task.dueAt();
            if (seen.add(task.id())) {
                lags[fired.getAndIncrement()] = Math.max(0, lag);
            } else {
                repeats.incrementAndGet();
            }
            Thread.sleep(settings.handlerMs());
        };
        WorkerConfig config = WorkerConfig.embedded(WorkerEnv.of(redisUrl, queue, settings.shards())
                .set(WorkerSettings.CONCURRENCY, settings.concurrency()).toMap());
        ReplicaController controller = new ReplicaController(policy, policy.getMinReplicas(),
                ReplicaController.measured(settings.startupMs(), settings.checkIntervalMs()));
        List<Duration> windows = ForecastPolicy.windowsFor(policy, ReplicaController.measured(settings.startupMs(), settings.checkIntervalMs()));
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redisUrl).queue(queue).shards(settings.shards()).build();
             LivePods pods = new LivePods(config, handler, settings.startupMs())) {
            enqueue(client, due);
            if (System.currentTimeMillis() > origin) {
                throw new IllegalStateException("enqueueing " + due.size() + " tasks took longer than " + ENQUEUE_LEAD_MS + " ms");
            }
            // the fleet at its floor has been running since before the scenario starts
            pods.scaleTo(policy.getMinReplicas(), origin - settings.startupMs());
            StatsReader stats = new StatsReader(client.protocol().scope());
            ForecastReader forecasts = new ForecastReader(client.protocol().scope());
            long deadline = scenario.end() + FINISH_TIMEOUT_MS;
            for (long t = origin + settings.checkPhaseMs(); t < scenario.end() || fired.get() < due.size(); t += settings.checkIntervalMs()) {
                if (t > deadline) {
                    throw new IllegalStateException(queue + ": fired " + fired.get() + " of " + due.size() + " tasks by " + Instant.ofEpochMilli(t));
                }
                WorkerThroughput.sleep(Math.max(0, t - System.currentTimeMillis()));
                long backlog = Replies.await(stats.stats(IntStream.range(0, settings.shards())), TIMEOUT).due();
                DueForecast forecast = Replies.await(forecasts.forecast(IntStream.range(0, settings.shards()), windows), TIMEOUT);
                long now = System.currentTimeMillis();
                int before = controller.replicas();
                pods.scaleTo(controller.check(now, backlog, forecast), now);
                if (controller.replicas() != before) {
                    trace.scaled(now - origin, backlog, -1, controller.replicas(), controller.reason());
                }
            }
            double replicaSeconds = pods.replicaSeconds(scenario.start(), scenario.end());
            if (repeats.get() > 0) {
                System.out.printf("  %s: %d tasks ran more than once (counted once, at their first run)%n", queue, repeats.get());
            }
            return new FleetRun(scenario.name(), policy.getMode().name(), LagStats.of(lags, fired.get()), replicaSeconds, pods.peak(),
                    controller.changes());
        }
    }

    private static void enqueue(DelayQueueClient client, DueTimes due) {
        List<TaskSpec> chunk = new ArrayList<>(1000);
        for (int i = 0; i < due.size(); i++) {
            chunk.add(TaskSpec.of("t-" + i).at(Instant.ofEpochMilli(due.at(i))).payload("p"));
            if (chunk.size() == 1000 || i == due.size() - 1) {
                client.enqueueAll(chunk);
                chunk.clear();
            }
        }
    }
}
