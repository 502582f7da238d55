package io.delayq.chaos.scenario;

import io.delayq.backlog.QueueStats;
import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.Waits;
import io.delayq.chaos.load.Producer;
import io.delayq.chaos.recorder.Execution;
import io.delayq.chaos.redis.ReplicatedCluster;
import io.delayq.chaos.report.Figures;
import io.delayq.chaos.report.RunAnalysis;
import io.delayq.chaos.report.ScenarioResult;
import io.delayq.client.DelayQueueClient;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.delayq.chaos.scenario.QueueSupport.ms;
import static io.delayq.chaos.scenario.QueueSupport.secs;

/**
 * Redis Cluster, 3 primaries + 3 replicas: under load, the primary serving the most shards is killed
 * with SIGKILL; its replica is promoted, the workers (redis-cluster:// with topology refresh) follow
 * it, and the killed node comes back as a replica. Replication is asynchronous, so a write the
 * primary acknowledged but had not yet shipped is gone after the failover; {@code replicaLag} makes
 * that window visible: the replica is cut off (frozen with SIGSTOP, its replication link dropped)
 * that long before the kill, as a partition between primary and replica would. With {@code replicaAcks} the producer waits (WAIT) for a replica to hold each enqueue
 * before counting it as done, and retries what was not confirmed.
 */
public final class ClusterFailoverScenario extends SettingsScenario<ClusterFailoverScenario.Settings> {
    public record Settings(String key, int tasks, int shards, int workers, Duration load, Duration killAt,
                           Duration replicaLag, int replicaAcks, Duration ackTimeout, Duration lease, int workMillis) implements SettingsScenario.Keyed {
    }

    public ClusterFailoverScenario(Settings settings) {
        super(settings);
    }

    @Override
    public ScenarioResult run(ChaosContext ctx) throws Exception {
        ctx.log("%s: Redis Cluster 3+3, %,d tasks, kill a primary at %s (replica lag %s, replica acks %d)", s.key(), s.tasks(),
                secs(s.killAt().toMillis()), secs(s.replicaLag().toMillis()), s.replicaAcks());
        try (ReplicatedCluster cluster = ReplicatedCluster.start(3);
             FleetRig rig = FleetRig.start(ctx, s.key(), cluster.url(), s.shards(), s.lease(), s.workers(), this::replicaAcks)) {
            String queue = rig.queue();
            // the victim: the primary that serves the most shards
            int[] shardsOn = new int[cluster.size()];
            int[] primaryOfShard = new int[s.shards()];
            for (int i = 0; i < s.shards(); i++) {
                primaryOfShard[i] = cluster.primaryFor(new ShardKeys(queue, i).due(0));
                shardsOn[primaryOfShard[i]]++;
            }
            int victim = 0;
            for (int n = 0; n < shardsOn.length; n++) {
                victim = shardsOn[n] > shardsOn[victim] ? n : victim;
            }
            Set<Integer> affected = new TreeSet<>();
            for (int i = 0; i < s.shards(); i++) {
                if (primaryOfShard[i] == victim) {
                    affected.add(i);
                }
            }
            int replica = cluster.replicaOf(victim);

            Producer producer = rig.startLoad("c-", s.tasks(), s.load(), Duration.ofMillis(500), Duration.ofMillis(3000),
                    i -> "work=" + s.workMillis());
            long t0 = rig.t0();
            Waits.sleepUntil(t0 + s.killAt().toNanos());
            if (!s.replicaLag().isZero()) {
                // a partition between primary and replica: the replica is frozen (so it cannot reconnect and
                // catch up from the backlog) and its link dropped; clients still reach the primary
                cluster.node(replica).pause();
                long cut = cluster.dropReplicationLinks(victim);
                rig.event(String.format("t=%s replica (node %d) of primary node %d cut off: SIGSTOP + replication link dropped (%d link)",
                        secs((System.nanoTime() - t0) / 1_000_000), replica, victim, cut));
                Waits.sleepUntil(System.nanoTime() + s.replicaLag().toNanos());
            }
            long killedAt = System.currentTimeMillis();
            long killedNanos = System.nanoTime();
            cluster.node(victim).kill();
            rig.event(String.format("t=%s kill -9 primary node %d (shards %s)", secs((killedNanos - t0) / 1_000_000), victim, affected));
            if (!s.replicaLag().isZero()) {
                cluster.node(replica).resume();
                rig.event(String.format("t=%s SIGCONT the replica", secs((System.nanoTime() - t0) / 1_000_000)));
            }
            Waits.require(Duration.ofSeconds(60), "the replica to be promoted", () -> cluster.isPrimary(replica));
            long failover = (System.nanoTime() - killedNanos) / 1_000_000;
            rig.event(String.format("t=%s replica node %d promoted to primary, %s after the kill", secs((System.nanoTime() - t0) / 1_000_000), replica, ms(failover)));
            cluster.node(victim).restart(); // its nodes.conf brings it back, as a replica of the new primary
            Waits.require(Duration.ofSeconds(60), "the old primary back as a replica, cluster healthy", cluster::healthy);
            rig.event(String.format("t=%s old primary (node %d) restarted, back as a replica in sync", secs((System.nanoTime() - t0) / 1_000_000), victim));

            rig.awaitLoadAcknowledged(producer, s.load());
            QueueSupport.Drained drained = rig.drainAndStop();
            QueueStats end = drained.end();
            long total = drained.totalMillis();
            List<Execution> executions = drained.executions();
            Figures f = RunAnalysis.analyse(producer.acked(), executions, s.lease().toMillis(), killedAt);
            long resumed = executions.stream()
                    .filter(e -> e.startMillis() > killedAt && affected.contains(Sharding.shardOf(e.id(), s.shards())))
                    .mapToLong(Execution::startMillis).min().orElse(-1);

            // did the other primaries' shards keep going? the worst lag of their tasks due while the failover ran
            long windowEnd = killedAt + failover;
            Map<String, Long> firstStart = new java.util.HashMap<>();
            for (Execution e : executions) {
                firstStart.merge(e.id(), e.startMillis(), Math::min);
            }
            long otherShardsMaxLag = producer.acked().entrySet().stream()
                    .filter(a -> !affected.contains(Sharding.shardOf(a.getKey(), s.shards())))
                    .filter(a -> a.getValue().dueAt() >= killedAt && a.getValue().dueAt() <= windowEnd && firstStart.containsKey(a.getKey()))
                    .mapToLong(a -> firstStart.get(a.getKey()) - Math.max(a.getValue().dueAt(), a.getValue().ackedAt()))
                    .max().orElse(-1);

            Map<String, String> details = new LinkedHashMap<>();
            details.put("enqueue acknowledgement", s.replicaAcks() == 0 ? "primary only (default)"
                    : "WAIT " + s.replicaAcks() + " replica(s), " + ms(s.ackTimeout().toMillis()) + " (replicaAcks)");
            details.put("replica at the kill", s.replicaLag().isZero() ? "in sync" : "cut off for " + ms(s.replicaLag().toMillis()));
            details.put("shards on the killed primary", affected.toString());
            details.put("failover (kill → replica promoted)", ms(failover));
            details.put("first execution on those shards after the kill", resumed < 0 ? "none" : ms(resumed - killedAt));
            details.put("worst dispatch lag on the other shards while the failover ran", otherShardsMaxLag < 0 ? "no task due then" : ms(otherShardsMaxLag));
            details.put("lost tasks acknowledged before the kill", f.lost() == 0 ? "0" : f.lost() + " within " + ms(f.lossWindowMillis()));
            details.put("repeated (id, attempt): claims or acks the failover forgot", String.valueOf(f.repeatedAttempts()));
            details.put("enqueue calls failed and retried", QueueSupport.enqueueFailures(producer));
            details.put("dead-lettered", String.valueOf(end.dead()));
            QueueSupport.putClosingDetails(details, drained.exits(), rig.loadAtStart());

            List<String> problems = new ArrayList<>();
            if (s.replicaAcks() > 0 && f.lost() > 0) {
                problems.add(f.lost() + " task(s) confirmed by a replica were lost, e.g. " + f.lostSample());
            }
            if (f.enqueued() != s.tasks()) {
                problems.add("only " + f.enqueued() + " of " + s.tasks() + " tasks were acknowledged");
            }
            if (resumed < 0) {
                problems.add("no task of the failed-over shards ran after the kill: the workers did not follow the failover");
            }
            if (f.early() > 0) {
                problems.add(f.early() + " execution(s) started before the task's due time");
            }
            String setup = String.format("Redis Cluster of 3 primaries + 3 replicas (node timeout 2 s), %,d tasks over %d shards, "
                            + "%d packaged workers on redis-cluster:// (lease %s); the primary with the most shards killed with SIGKILL%s; "
                            + "enqueues %s", s.tasks(), s.shards(), s.workers(), secs(s.lease().toMillis()),
                    s.replicaLag().isZero() ? "" : " after its replica had been cut off (frozen, replication link dropped) for " + secs(s.replicaLag().toMillis()),
                    s.replicaAcks() == 0 ? "acknowledged by the primary alone" : "confirmed with WAIT " + s.replicaAcks() + " " + ms(s.ackTimeout().toMillis()));
            ctx.log("%s: done in %s: lost %d (window %s), failover %s, repeated attempts %d", s.key(), secs(total), f.lost(),
                    ms(f.lossWindowMillis()), ms(failover), f.repeatedAttempts());
            String title = "Cluster primary kill -9" + (s.replicaLag().isZero() ? "" : ", replica cut off " + secs(s.replicaLag().toMillis()))
                    + (s.replicaAcks() == 0 ? ", no replica ack" : ", replicaAcks(" + s.replicaAcks() + ")");
            return new ScenarioResult(s.key(), title, setup, f, details, total, rig.events(), problems);
        }
    }

    /** The producer's enqueues wait (WAIT) for {@code replicaAcks} replicas, when the settings ask for any. */
    private DelayQueueClient.Builder replicaAcks(DelayQueueClient.Builder b) {
        return s.replicaAcks() > 0 ? b.replicaAcks(s.replicaAcks(), s.ackTimeout()) : b;
    }
}
