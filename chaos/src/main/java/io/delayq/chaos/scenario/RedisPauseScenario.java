package io.delayq.chaos.scenario;

import io.delayq.backlog.QueueStats;
import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.Waits;
import io.delayq.chaos.fleet.WorkerFleet;
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

import static io.delayq.chaos.scenario.QueueSupport.secs;

/**
 * Network trouble as a worker sees it: the Redis process is frozen with SIGSTOP for longer than the
 * lease (connections stay open, nothing answers), then continued with SIGCONT. Some tasks run longer
 * than the lease, so handlers are mid-task when their leases can no longer be extended. Checks: no
 * task is executed twice at the same time unless its lease expired first, every worker's /readyz
 * goes false during the pause and comes back true without a restart, nothing is lost.
 */
public final class RedisPauseScenario extends SettingsScenario<RedisPauseScenario.Settings> {
    public record Settings(String key, int tasks, int shards, int workers, Duration load, Duration pauseAt, Duration pause,
                           Duration lease, int workMillis, int slowEvery, int slowWorkMillis) implements SettingsScenario.Keyed {
    }

    public RedisPauseScenario(Settings settings) {
        super(settings);
    }

    @Override
    public ScenarioResult run(ChaosContext ctx) throws Exception {
        ctx.log("%s: %,d tasks, %d workers, Redis SIGSTOP at %s for %s (lease %s)", s.key(), s.tasks(), s.workers(),
                secs(s.pauseAt().toMillis()), secs(s.pause().toMillis()), secs(s.lease().toMillis()));
        try (LocalRedisServer redis = LocalRedisServer.start();
             FleetRig rig = FleetRig.start(ctx, s.key(), redis.url(), s.shards(), s.lease(), s.workers(), UnaryOperator.identity())) {
            WorkerFleet fleet = rig.fleet();
            Producer producer = rig.startLoad("p-", s.tasks(), s.load(), Duration.ofMillis(200), Duration.ofMillis(2000),
                    i -> "work=" + (i % s.slowEvery() == 0 ? s.slowWorkMillis() : s.workMillis()));
            long t0 = rig.t0();

            Waits.sleepUntil(t0 + s.pauseAt().toNanos());
            long inflightAtPause = rig.admin().stats().inflight();
            long pausedAt = System.nanoTime();
            redis.pause();
            rig.event(String.format("t=%s SIGSTOP Redis (%d task(s) in flight)", secs((pausedAt - t0) / 1_000_000), inflightAtPause));
            long[] notReadyAfter = new long[fleet.size()];
            boolean allWentUnready;
            try {
                // every worker must notice on its own (its claims and stats time out) and say so on /readyz
                allWentUnready = Waits.until(s.pause(), Duration.ofMillis(100), () -> {
                    boolean all = true;
                    for (int i = 0; i < fleet.size(); i++) {
                        if (notReadyAfter[i] == 0 && !fleet.get(i).ready()) {
                            notReadyAfter[i] = (System.nanoTime() - pausedAt) / 1_000_000;
                        }
                        all &= notReadyAfter[i] > 0;
                    }
                    return all;
                });
                Waits.sleepUntil(pausedAt + s.pause().toNanos());
            } finally {
                redis.resume();
            }
            long resumedAt = System.nanoTime();
            rig.event(String.format("t=%s SIGCONT Redis after %s", secs((resumedAt - t0) / 1_000_000), secs((resumedAt - pausedAt) / 1_000_000)));
            long[] readyAgainAfter = new long[fleet.size()];
            boolean allBack = Waits.until(Duration.ofSeconds(60), Duration.ofMillis(100), () -> {
                boolean all = true;
                for (int i = 0; i < fleet.size(); i++) {
                    if (readyAgainAfter[i] == 0 && fleet.get(i).ready()) {
                        readyAgainAfter[i] = Math.max(1, (System.nanoTime() - resumedAt) / 1_000_000);
                    }
                    all &= readyAgainAfter[i] > 0;
                }
                return all;
            });
            rig.awaitLoadAcknowledged(producer, s.load());
            QueueSupport.Drained drained = rig.drainAndStop();
            QueueStats end = drained.end();
            long total = drained.totalMillis();
            Figures f = RunAnalysis.analyse(producer.acked(), drained.executions(), s.lease().toMillis(), -1);

            Map<String, String> details = new LinkedHashMap<>();
            details.put("tasks in flight when Redis froze", String.valueOf(inflightAtPause));
            details.put("/readyz false after (per worker)", list(notReadyAfter));
            details.put("/readyz true again after SIGCONT (per worker)", list(readyAgainAfter));
            details.put("worker restarts needed", "0");
            details.put("executions of one task overlapping in time", String.valueOf(f.overlappingPairs()));
            details.put("  of which without a lease expiry", String.valueOf(f.concurrentWithoutExpiry()));
            details.put("enqueue calls failed and retried", QueueSupport.enqueueFailures(producer));
            QueueSupport.putClosingDetails(details, drained.exits(), rig.loadAtStart());

            List<String> problems = new ArrayList<>();
            if (f.lost() > 0) {
                problems.add(f.lost() + " acknowledged task(s) never executed, e.g. " + f.lostSample());
            }
            if (f.early() > 0) {
                problems.add(f.early() + " execution(s) started before the task's due time");
            }
            if (f.concurrentWithoutExpiry() > 0) {
                problems.add(f.concurrentWithoutExpiry() + " concurrent execution(s) of one task without a lease expiry");
            }
            if (f.repeatedAttempts() > 0) {
                problems.add(f.repeatedAttempts() + " execution(s) repeated an (id, attempt)");
            }
            if (!allWentUnready) {
                problems.add("not every worker reported /readyz false during the pause: " + list(notReadyAfter));
            }
            if (!allBack) {
                problems.add("not every worker became ready again within 60 s of SIGCONT: " + list(readyAgainAfter));
            }
            if (end.dead() > 0) {
                problems.add(end.dead() + " task(s) dead-lettered");
            }
            String setup = String.format("%,d tasks over %d shards (%d ms of work, every %dth task %s), %d packaged workers (lease %s); "
                            + "Redis frozen with SIGSTOP for %s, then SIGCONT", s.tasks(), s.shards(), s.workMillis(), s.slowEvery(),
                    secs(s.slowWorkMillis()), s.workers(), secs(s.lease().toMillis()), secs(s.pause().toMillis()));
            ctx.log("%s: done in %s: lost %d, overlapping %d (without lease expiry %d), readiness %s / %s", s.key(), secs(total),
                    f.lost(), f.overlappingPairs(), f.concurrentWithoutExpiry(), list(notReadyAfter), list(readyAgainAfter));
            return new ScenarioResult(s.key(), "Redis frozen (SIGSTOP " + secs(s.pause().toMillis()) + ", lease "
                    + secs(s.lease().toMillis()) + ")", setup, f, details, total, rig.events(), problems);
        }
    }

    private static String list(long[] millis) {
        List<String> out = new ArrayList<>();
        for (long m : millis) {
            out.add(m == 0 ? "never" : QueueSupport.ms(m));
        }
        return String.join(", ", out);
    }
}
