package io.delayq.chaos;

import io.delayq.chaos.report.ScenarioResult;
import io.delayq.chaos.scenario.ClusterFailoverScenario;
import io.delayq.chaos.scenario.RedisPauseScenario;
import io.delayq.chaos.scenario.ReshardScenario;
import io.delayq.chaos.scenario.Scenario;
import io.delayq.chaos.scenario.UpgradeScenario;
import io.delayq.chaos.scenario.WorkerKillScenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The scenarios of a full run and of the short run that CI executes. */
public final class ChaosSuite {
    private ChaosSuite() {
    }

    public static List<Scenario> full() {
        List<Scenario> all = new ArrayList<>();
        all.add(new WorkerKillScenario(new WorkerKillScenario.Settings("kill-fsync-always", 100_000, 8, 3, Duration.ofSeconds(100),
                5, Duration.ofSeconds(10), Duration.ofSeconds(25), "always", Duration.ofSeconds(5), 20)));
        all.add(new WorkerKillScenario(new WorkerKillScenario.Settings("kill-fsync-everysec", 100_000, 8, 3, Duration.ofSeconds(100),
                5, Duration.ofSeconds(10), Duration.ofSeconds(25), "everysec", Duration.ofSeconds(5), 20)));
        all.add(new RedisPauseScenario(new RedisPauseScenario.Settings("redis-sigstop", 6_000, 8, 3, Duration.ofSeconds(30),
                Duration.ofSeconds(8), Duration.ofSeconds(12), Duration.ofSeconds(4), 20, 200, 15_000)));
        all.add(cluster("cluster-kill", 20_000, Duration.ZERO, 0));
        all.add(cluster("cluster-kill-lagging-replica", 20_000, Duration.ofMillis(1500), 0));
        all.add(cluster("cluster-kill-lagging-replica-acks", 20_000, Duration.ofMillis(1500), 1));
        all.add(new ReshardScenario(new ReshardScenario.Settings("reshard-grow", 16, 64, 100_000, Duration.ofSeconds(60), 40_000,
                Duration.ofSeconds(60), 3, Duration.ofSeconds(5), 20, 20, Duration.ofSeconds(5), List.of(0.1, 0.2, 0.35, 0.45), 0.5, 0.3,
                Duration.ofMillis(10), 2)));
        all.add(new ReshardScenario(new ReshardScenario.Settings("reshard-grow-p3", 16, 64, 100_000, Duration.ofSeconds(60), 40_000,
                Duration.ofSeconds(60), 3, Duration.ofSeconds(5), 20, 20, Duration.ofSeconds(5), List.of(0.1, 0.2, 0.35, 0.45), 0.5, 0.3,
                Duration.ofMillis(10), 3)));
        all.add(new UpgradeScenario(new UpgradeScenario.Settings("upgrade-live", 40_000, 8, 3, Duration.ofSeconds(40),
                Duration.ofSeconds(10), Duration.ofMillis(1500), Duration.ofSeconds(5), 20)));
        return all;
    }

    /**
     * About 4.5 minutes: what CI runs on every build (worker kills + Redis restart, SIGSTOP, a failover with replica acks, a grow
     * with worker, mover and Redis kills, an upgrade to protocol 3 in place with the upgrade and a worker killed, and the same
     * grow of a queue of protocol 3).
     */
    public static List<Scenario> shortRun() {
        List<Scenario> all = new ArrayList<>();
        all.add(new WorkerKillScenario(new WorkerKillScenario.Settings("kill-fsync-always", 10_000, 8, 3, Duration.ofSeconds(20),
                2, Duration.ofSeconds(7), Duration.ofSeconds(11), "always", Duration.ofSeconds(4), 10)));
        all.add(new RedisPauseScenario(new RedisPauseScenario.Settings("redis-sigstop", 2_000, 8, 2, Duration.ofSeconds(16),
                Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(3), 20, 100, 10_000)));
        all.add(new ClusterFailoverScenario(new ClusterFailoverScenario.Settings("cluster-kill-lagging-replica-acks", 6_000, 8, 3,
                Duration.ofSeconds(16), Duration.ofSeconds(6), Duration.ofMillis(1500), 1, Duration.ofMillis(500), Duration.ofSeconds(4), 10)));
        all.add(shortGrow("reshard-grow", 2));
        all.add(upgrade());
        all.add(shortGrow("reshard-grow-p3", 3));
        return all;
    }

    /** A grow from 4 to 16 shards under load with workers, the mover and Redis killed, on a queue of {@code protocol}. */
    private static Scenario shortGrow(String key, int protocol) {
        return new ReshardScenario(new ReshardScenario.Settings(key, 4, 16, 20_000, Duration.ofSeconds(25), 8_000,
                Duration.ofSeconds(25), 3, Duration.ofSeconds(4), 10, 5, Duration.ofSeconds(3), List.of(0.15, 0.35), 0.45, 0.25,
                Duration.ofMillis(10), protocol));
    }

    /** A queue upgraded from protocol 2 to 3 under load, its upgrade and a worker killed with SIGKILL. */
    private static Scenario upgrade() {
        return new UpgradeScenario(new UpgradeScenario.Settings("upgrade-live", 8_000, 8, 3, Duration.ofSeconds(16),
                Duration.ofSeconds(5), Duration.ofMillis(1500), Duration.ofSeconds(4), 10));
    }

    private static Scenario cluster(String key, int tasks, Duration replicaLag, int replicaAcks) {
        return new ClusterFailoverScenario(new ClusterFailoverScenario.Settings(key, tasks, 8, 3, Duration.ofSeconds(30),
                Duration.ofSeconds(10), replicaLag, replicaAcks, Duration.ofMillis(500), Duration.ofSeconds(5), 20));
    }

    public static List<Scenario> select(List<Scenario> scenarios, Set<String> only) {
        if (only.isEmpty()) {
            return scenarios;
        }
        List<Scenario> picked = scenarios.stream().filter(s -> only.contains(s.key())).toList();
        if (picked.isEmpty()) {
            throw new IllegalArgumentException("--only names no scenario of this run; known: "
                    + scenarios.stream().map(Scenario::key).toList());
        }
        return picked;
    }

    public static List<ScenarioResult> run(List<Scenario> scenarios, ChaosContext ctx) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        for (Scenario s : scenarios) {
            results.add(s.run(ctx));
        }
        return results;
    }
}
