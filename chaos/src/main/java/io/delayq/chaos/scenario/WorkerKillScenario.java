package io.delayq.chaos.scenario;

import io.delayq.backlog.QueueStats;
import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.Waits;
import io.delayq.chaos.fleet.WorkerFleet;
import io.delayq.chaos.fleet.WorkerProcess;
import io.delayq.chaos.load.Producer;
import io.delayq.chaos.report.Figures;
import io.delayq.chaos.report.RunAnalysis;
import io.delayq.chaos.report.ScenarioResult;
import io.delayq.localredis.LocalRedisServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static io.delayq.chaos.scenario.QueueSupport.ms;
import static io.delayq.chaos.scenario.QueueSupport.secs;

/**
 * Packaged worker processes deliver a steady stream of tasks while one of them, picked at random, is
 * killed with SIGKILL every ~{@code killEvery} and restarted at once, and Redis (AOF on, with the
 * given {@code appendfsync}) is killed with SIGKILL once and restarted on the same port and data.
 */
public final class WorkerKillScenario extends SettingsScenario<WorkerKillScenario.Settings> {
    /**
     * @param redisRestartAt when Redis is killed and restarted, from the start of the load (null: never)
     */
    public record Settings(String key, int tasks, int shards, int workers, Duration load, int kills, Duration killEvery,
                           Duration redisRestartAt, String appendfsync, Duration lease, int workMillis) implements SettingsScenario.Keyed {
    }

    public WorkerKillScenario(Settings settings) {
        super(settings);
    }

    @Override
    public ScenarioResult run(ChaosContext ctx) throws Exception {
        ctx.log("%s: %,d tasks over %d shards, %d workers, %d kill(s) every ~%s, Redis restart at %s (appendfsync %s)",
                s.key(), s.tasks(), s.shards(), s.workers(), s.kills(), secs(s.killEvery().toMillis()),
                s.redisRestartAt() == null ? "-" : secs(s.redisRestartAt().toMillis()), s.appendfsync());
        try (LocalRedisServer redis = LocalRedisServer.start("--appendonly", "yes", "--appendfsync", s.appendfsync());
             FleetRig rig = FleetRig.start(ctx, s.key(), redis.url(), s.shards(), s.lease(), s.workers(), UnaryOperator.identity())) {
            WorkerFleet fleet = rig.fleet();
            ctx.log("%s: %d workers ready, load starts", s.key(), s.workers());

            long t0Millis = System.currentTimeMillis();
            Producer producer = rig.startLoad("t-", s.tasks(), s.load(), Duration.ofMillis(500), Duration.ofMillis(3000),
                    i -> "work=" + s.workMillis());
            long t0 = rig.t0();

            long redisKilledAt = -1;
            long redisDowntime = -1;
            List<long[]> schedule = new ArrayList<>(); // {at nanos, kind: 0 = worker kill, 1 = Redis restart}
            for (int k = 1; k <= s.kills(); k++) {
                long jitter = (long) ((ctx.random().nextDouble() - 0.5) * 2_000_000_000L); // ±1 s: "~10 s"
                schedule.add(new long[]{t0 + k * s.killEvery().toNanos() + jitter, 0});
            }
            if (s.redisRestartAt() != null) {
                schedule.add(new long[]{t0 + s.redisRestartAt().toNanos(), 1});
            }
            schedule.sort((a, b) -> Long.compare(a[0], b[0]));
            for (long[] event : schedule) {
                Waits.sleepUntil(event[0]);
                String at = secs((System.nanoTime() - t0) / 1_000_000);
                if (event[1] == 0) {
                    int victim = ctx.random().nextInt(fleet.size());
                    WorkerProcess before = fleet.get(victim);
                    fleet.killAndRestart(victim);
                    rig.event(String.format("t=%s kill -9 worker %d (pid %d), restarted as pid %d", at, victim + 1, before.pid(), fleet.get(victim).pid()));
                } else {
                    redisKilledAt = System.currentTimeMillis();
                    long k0 = System.nanoTime();
                    redis.restart(); // SIGKILL, then the same port, arguments and AOF; returns once PING answers
                    redisDowntime = (System.nanoTime() - k0) / 1_000_000;
                    rig.event(String.format("t=%s kill -9 Redis (appendfsync %s), restarted from its AOF in %s", at, s.appendfsync(), ms(redisDowntime)));
                }
            }
            rig.awaitLoadAcknowledged(producer, s.load());
            QueueSupport.Drained drained = rig.drainAndStop();
            QueueStats end = drained.end();
            long total = drained.totalMillis();
            Figures f = RunAnalysis.analyse(producer.acked(), drained.executions(), s.lease().toMillis(), redisKilledAt);

            Map<String, String> details = new LinkedHashMap<>();
            details.put("worker kills (kill -9, restarted)", String.valueOf(s.kills()));
            if (redisKilledAt > 0) {
                details.put("Redis restart: down for", ms(redisDowntime));
                details.put("Redis restart at", secs(redisKilledAt - t0Millis) + " into the load");
            }
            details.put("loss window documented by Redis", "always".equals(s.appendfsync())
                    ? "0 (fsync before the reply)" : "everysec".equals(s.appendfsync()) ? "≤ 1 s" : "unbounded");
            details.put("lost tasks acknowledged before the Redis kill", f.lost() == 0 ? "0" : f.lost() + " within " + ms(f.lossWindowMillis()));
            details.put("enqueue calls failed and retried", QueueSupport.enqueueFailures(producer));
            details.put("dead-lettered", String.valueOf(end.dead()));
            details.put("throughput", String.format("%,.0f tasks/s", f.enqueued() * 1000.0 / Math.max(1, total)));
            QueueSupport.putClosingDetails(details, drained.exits(), rig.loadAtStart());

            List<String> problems = new ArrayList<>();
            if (f.lost() > 0) {
                problems.add(f.lost() + " acknowledged task(s) never executed, e.g. " + f.lostSample());
            }
            if (f.enqueued() != s.tasks()) {
                problems.add("only " + f.enqueued() + " of " + s.tasks() + " tasks were acknowledged");
            }
            if ("always".equals(s.appendfsync()) && f.repeatedAttempts() > 0) {
                problems.add(f.repeatedAttempts() + " execution(s) repeated an (id, attempt): a re-delivery without a lease expiry");
            }
            if (f.early() > 0) {
                problems.add(f.early() + " execution(s) started before the task's due time");
            }
            if (f.concurrentWithoutExpiry() > 0) {
                problems.add(f.concurrentWithoutExpiry() + " concurrent execution(s) of one task without a lease expiry");
            }
            if (end.dead() > 0) {
                problems.add(end.dead() + " task(s) dead-lettered");
            }
            String setup = String.format("%,d tasks (due 0.5–3 s after enqueue, %d ms of work each) over %d shards, %d packaged worker "
                            + "processes (lease %s), AOF with appendfsync %s; %d × kill -9 of a random worker every ~%s%s",
                    s.tasks(), s.workMillis(), s.shards(), s.workers(), secs(s.lease().toMillis()), s.appendfsync(), s.kills(),
                    secs(s.killEvery().toMillis()), s.redisRestartAt() == null ? "" : ", 1 × kill -9 + restart of Redis");
            ctx.log("%s: done in %s: lost %d, duplicated %d (repeated attempts %d), late > lease %d", s.key(), secs(total), f.lost(),
                    f.duplicatedIds(), f.repeatedAttempts(), f.lateBeyondLease());
            return new ScenarioResult(s.key(), title(), setup, f, details, total, rig.events(), problems);
        }
    }

    private String title() {
        return "Worker kill -9 ×" + s.kills() + (s.redisRestartAt() == null ? "" : " + Redis kill -9/restart, appendfsync " + s.appendfsync());
    }
}
