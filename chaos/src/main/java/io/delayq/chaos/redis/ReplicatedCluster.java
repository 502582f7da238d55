package io.delayq.chaos.redis;

import io.delayq.chaos.Waits;
import io.delayq.localredis.LocalClusterLayout;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Redis Cluster on loopback: {@code masters} primaries, each with one replica, every node its
 * own redis-server process. Built the way {@code redis-cli --cluster create … --cluster-replicas 1}
 * builds it (slots split evenly, CLUSTER MEET, CLUSTER REPLICATE), but from Java so that the embedded
 * Redis works too. Node timeout 2 s, so a killed primary is failed over within seconds;
 * {@code cluster-require-full-coverage no}, so the other primaries keep serving their shards meanwhile.
 */
public final class ReplicatedCluster implements AutoCloseable {
    public static final int SLOTS = LocalClusterLayout.SLOTS;
    private static final Duration CALL = Duration.ofSeconds(3);

    private final int masters;
    private final List<LocalRedisServer> nodes = new ArrayList<>();
    private final List<String> nodeIds = new ArrayList<>();
    private final ClientResources resources = DefaultClientResources.create();
    private final Map<Integer, RedisEndpoint> admins = new HashMap<>();

    private ReplicatedCluster(int masters) {
        this.masters = masters;
    }

    public static ReplicatedCluster start(int masters) throws InterruptedException {
        ReplicatedCluster c = new ReplicatedCluster(masters);
        try {
            for (int i = 0; i < masters * 2; i++) {
                c.nodes.add(LocalRedisServer.start(LocalClusterLayout.freePortWithBusPort(), List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000",
                        "--cluster-require-full-coverage", "no")));
            }
            for (int i = 0; i < c.nodes.size(); i++) {
                c.nodeIds.add(c.call(i, e -> e.commands().clusterMyId()));
            }
            LocalClusterLayout.assignSlots(masters, (node, slots) -> c.call(node, e -> e.commands().clusterAddSlots(slots)));
            for (int i = 1; i < c.nodes.size(); i++) {
                int port = c.nodes.get(i).port();
                c.call(0, e -> e.commands().clusterMeet("127.0.0.1", port));
            }
            Waits.require(Duration.ofSeconds(30), "every node to know all " + c.nodes.size() + " nodes",
                    () -> c.allNodes(info -> LocalClusterLayout.knowsNodes(info, c.nodes.size())));
            for (int r = 0; r < masters; r++) {
                String master = c.nodeIds.get(r);
                c.call(masters + r, e -> e.commands().clusterReplicate(master));
            }
            Waits.require(Duration.ofSeconds(60), "cluster_state:ok and every replica in sync", c::healthy);
            return c;
        } catch (RuntimeException | InterruptedException | Error e) {
            c.close();
            throw e;
        }
    }

    private interface Call<T> {
        io.lettuce.core.RedisFuture<T> on(RedisEndpoint e);
    }

    /** One command on one node over a plain (non-cluster) admin connection; a failed connection is dropped. */
    private synchronized <T> T call(int node, Call<T> call) {
        RedisEndpoint e = null;
        try {
            e = admins.get(node);
            if (e == null) {
                e = RedisEndpoint.connect(nodes.get(node).url(), resources, CALL);
                admins.put(node, e);
            }
            return call.on(e).get(CALL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception ex) {
            if (e != null) {
                admins.remove(node);
                e.close();
            }
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("node " + node + " (" + nodes.get(node).url() + "): " + ex.getMessage(), ex);
        }
    }

    private boolean allNodes(java.util.function.Predicate<String> clusterInfo) {
        for (int i = 0; i < nodes.size(); i++) {
            if (!nodes.get(i).isAlive()) {
                continue;
            }
            try {
                String info = call(i, e -> e.commands().clusterInfo());
                if (!clusterInfo.test(info)) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** All live nodes agree the cluster is ok, and every primary has a replica with its link up. */
    public boolean healthy() {
        if (!allNodes(LocalClusterLayout::servesAllSlots)) {
            return false;
        }
        int linked = 0;
        for (int i = 0; i < nodes.size(); i++) {
            if (!nodes.get(i).isAlive()) {
                return false;
            }
            try {
                String repl = call(i, e -> e.commands().info("replication"));
                if (repl.contains("role:slave") && repl.contains("master_link_status:up") && !repl.contains("master_sync_in_progress:1")) {
                    linked++;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return linked == masters;
    }

    /** The node that currently serves {@code key}'s slot as primary (asked of a live node). */
    public int primaryFor(String key) {
        int slot = SlotHash.getSlot(key);
        for (int i = 0; i < nodes.size(); i++) {
            if (!nodes.get(i).isAlive()) {
                continue;
            }
            String view = call(i, e -> e.commands().clusterNodes());
            for (String line : view.split("\n")) {
                String[] f = line.trim().split(" ");
                if (f.length < 9 || !f[2].contains("master") || f[2].contains("fail")) {
                    continue;
                }
                for (int k = 8; k < f.length; k++) {
                    String[] range = f[k].split("-");
                    if (range[0].startsWith("[")) {
                        continue;
                    }
                    int lo = Integer.parseInt(range[0]);
                    int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
                    if (slot >= lo && slot <= hi) {
                        return nodeIds.indexOf(f[0]);
                    }
                }
            }
            return -1;
        }
        return -1;
    }

    /** The node replicating {@code primary} right now, or -1. */
    public int replicaOf(int primary) {
        String id = nodeIds.get(primary);
        for (int i = 0; i < nodes.size(); i++) {
            if (i == primary || !nodes.get(i).isAlive()) {
                continue;
            }
            String view = call(i, e -> e.commands().clusterNodes());
            for (String line : view.split("\n")) {
                String[] f = line.trim().split(" ");
                if (f.length >= 4 && f[2].contains("slave") && f[3].equals(id)) {
                    return nodeIds.indexOf(f[0]);
                }
            }
            return -1;
        }
        return -1;
    }

    /**
     * Cuts the replication link of {@code primary}'s replicas (CLIENT KILL TYPE replica), as a network
     * partition between them would; the primary keeps accepting writes. Answers how many links were cut.
     */
    public long dropReplicationLinks(int primary) {
        return call(primary, e -> e.commands().clientKill(io.lettuce.core.KillArgs.Builder.typeSlave()));
    }

    /** Whether {@code node} reports itself as a primary (after a failover promoted it). */
    public boolean isPrimary(int node) {
        try {
            return call(node, e -> e.commands().info("replication")).contains("role:master");
        } catch (RuntimeException e) {
            return false;
        }
    }

    public LocalRedisServer node(int i) {
        return nodes.get(i);
    }

    public int size() {
        return nodes.size();
    }

    /** {@code redis-cluster://127.0.0.1:p1,…} with every node as a seed. */
    public String url() {
        return "redis-cluster://" + nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
    }

    @Override
    public synchronized void close() {
        admins.values().forEach(RedisEndpoint::close);
        admins.clear();
        nodes.forEach(LocalRedisServer::close);
        resources.shutdown();
    }
}
