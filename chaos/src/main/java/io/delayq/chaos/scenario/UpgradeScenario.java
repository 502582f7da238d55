package io.delayq.chaos.scenario;

import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.Waits;
import io.delayq.chaos.fleet.MoverProcess;
import io.delayq.chaos.fleet.WorkerFleet;
import io.delayq.chaos.fleet.WorkerProcess;
import io.delayq.chaos.load.Producer;
import io.delayq.chaos.report.Figures;
import io.delayq.chaos.report.RunAnalysis;
import io.delayq.chaos.report.ScenarioResult;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.delayq.chaos.scenario.QueueSupport.secs;

/**
 * A queue of protocol 2 upgraded in place to protocol 3 (docs/protocol3.md, "Upgrade in place") while packaged worker
 * processes deliver a steady stream of tasks: {@code delayq upgrade} is killed with SIGKILL right after it starts and
 * run again, and a worker is killed with SIGKILL and restarted during the switch. The workers follow the switch by
 * themselves; the producer is a protocol-2 process that never notices it, so every task it writes afterwards is
 * adopted from protocol 2's keys.
 */
public final class UpgradeScenario extends SettingsScenario<UpgradeScenario.Settings> {
    /**
     * @param upgradeAt     when {@code delayq upgrade} starts, from the start of the load
     * @param upgradeKillAt how long after its start the first run is killed with SIGKILL (run again at once)
     */
    public record Settings(String key, int tasks, int shards, int workers, Duration load, Duration upgradeAt, Duration upgradeKillAt,
                           Duration lease, int workMillis) implements SettingsScenario.Keyed {
    }

    public UpgradeScenario(Settings settings) {
        super(settings);
    }

    @Override
    public ScenarioResult run(ChaosContext ctx) throws Exception {
        ctx.log("%s: %,d tasks over %d shards, %d workers, upgrade at %s (its first run killed after %s)", s.key(), s.tasks(), s.shards(),
                s.workers(), secs(s.upgradeAt().toMillis()), secs(s.upgradeKillAt().toMillis()));
        try (LocalRedisServer redis = LocalRedisServer.start("--appendonly", "yes", "--appendfsync", "always");
             FleetRig rig = FleetRig.startOn(2, ctx, s.key(), redis.url(), s.shards(), s.lease(), s.workers());
             RedisEndpoint probe = RedisEndpoint.connect(redis.url())) {
            WorkerFleet fleet = rig.fleet();
            Producer producer = rig.startLoad("t-", s.tasks(), s.load(), Duration.ofMillis(500), Duration.ofMillis(3000),
                    i -> "work=" + s.workMillis());
            long t0 = rig.t0();
            List<String> problems = new ArrayList<>();

            Waits.sleepUntil(t0 + s.upgradeAt().toNanos());
            MoverProcess first = MoverProcess.upgrade(ctx.binaries(), redis.url(), rig.queue(), Duration.ofSeconds(30),
                    rig.dir().resolve("upgrade-1.out"));
            Waits.sleepUntil(System.nanoTime() + s.upgradeKillAt().toNanos());
            first.kill9();
            rig.event(String.format("t=%s kill -9 the upgrade (pid %d) %s after it started", secs((System.nanoTime() - t0) / 1_000_000),
                    first.pid(), secs(s.upgradeKillAt().toMillis())));
            int victim = ctx.random().nextInt(fleet.size());
            WorkerProcess before = fleet.get(victim);
            fleet.killAndRestart(victim);
            rig.event(String.format("t=%s kill -9 worker %d (pid %d), restarted as pid %d", secs((System.nanoTime() - t0) / 1_000_000),
                    victim + 1, before.pid(), fleet.get(victim).pid()));
            MoverProcess second = MoverProcess.upgrade(ctx.binaries(), redis.url(), rig.queue(), Duration.ofSeconds(30),
                    rig.dir().resolve("upgrade-2.out"));
            int exit = second.waitFor(Duration.ofSeconds(90));
            rig.event(String.format("t=%s the upgrade run again exited %d: %s", secs((System.nanoTime() - t0) / 1_000_000), exit,
                    second.lastLine()));
            if (exit != 0 && exit != 1) {
                problems.add("the upgrade run again exited " + exit + ": " + second.lastLine());
            }

            rig.followUpgrade();
            rig.awaitLoadAcknowledged(producer, s.load());
            QueueSupport.Drained drained = rig.drainAndStop();
            // after the drain nothing is in flight: one more run finds nothing of protocol 2 left
            MoverProcess last = MoverProcess.upgrade(ctx.binaries(), redis.url(), rig.queue(), Duration.ofSeconds(10),
                    rig.dir().resolve("upgrade-3.out"));
            int lastExit = last.waitFor(Duration.ofSeconds(60));
            rig.event("after the drain, the upgrade exited " + lastExit + ": " + last.lastLine());
            if (lastExit != 0) {
                problems.add("after the drain the upgrade still found protocol 2's tasks: " + last.lastLine());
            }
            String protocol = Replies.await(probe.commands().hget("dq:{" + rig.queue() + "}:meta", "protocol"), Duration.ofSeconds(5));
            if (!"3".equals(protocol)) {
                problems.add("the queue's meta records protocol " + protocol + ", not 3");
            }
            Figures f = RunAnalysis.analyse(producer.acked(), drained.executions(), s.lease().toMillis(), -1);
            if (f.lost() > 0) {
                problems.add(f.lost() + " acknowledged task(s) never executed, e.g. " + f.lostSample());
            }
            if (f.enqueued() != s.tasks()) {
                problems.add("only " + f.enqueued() + " of " + s.tasks() + " tasks were acknowledged");
            }
            if (f.repeatedAttempts() > 0) {
                problems.add(f.repeatedAttempts() + " execution(s) repeated an (id, attempt): a re-delivery without a lease expiry");
            }
            if (f.early() > 0) {
                problems.add(f.early() + " execution(s) started before the task's due time");
            }
            if (f.concurrentWithoutExpiry() > 0) {
                problems.add(f.concurrentWithoutExpiry() + " concurrent execution(s) of one task without a lease expiry");
            }
            if (drained.end().dead() > 0) {
                problems.add(drained.end().dead() + " task(s) dead-lettered");
            }
            Map<String, String> details = new LinkedHashMap<>();
            details.put("protocol afterwards", protocol);
            details.put("upgrade runs", "3 (the first killed with SIGKILL)");
            details.put("enqueue calls failed and retried", QueueSupport.enqueueFailures(producer));
            QueueSupport.putClosingDetails(details, drained.exits(), rig.loadAtStart());
            String setup = String.format("%,d tasks (due 0.5–3 s after enqueue, %d ms of work each) over %d shards, %d packaged worker "
                            + "processes (lease %s), AOF with appendfsync always; the queue upgraded from protocol 2 to 3 at %s into the load, "
                            + "the upgrade killed with SIGKILL %s after it started and run again, a worker killed with SIGKILL; the producer "
                            + "speaks protocol 2 throughout", s.tasks(), s.workMillis(), s.shards(), s.workers(), secs(s.lease().toMillis()),
                    secs(s.upgradeAt().toMillis()), secs(s.upgradeKillAt().toMillis()));
            ctx.log("%s: done in %s: lost %d, duplicated %d (repeated attempts %d), early %d", s.key(), secs(drained.totalMillis()), f.lost(),
                    f.duplicatedIds(), f.repeatedAttempts(), f.early());
            return new ScenarioResult(s.key(), "Upgrade to protocol 3 in place under load", setup, f, details, drained.totalMillis(),
                    rig.events(), problems);
        }
    }
}
