package io.delayq.testing;

import io.delayq.localredis.LocalClusterLayout;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import static io.delayq.testing.TestQueue.get;
import static org.awaitility.Awaitility.await;

/**
 * A real Redis Cluster of {@code n} primaries (no replicas) on loopback: every node its own
 * {@code redis-server} process, the 16384 slots split evenly, nodes introduced with CLUSTER MEET.
 * The layout (ports, slot split, readiness) is {@link LocalClusterLayout}'s.
 */
public final class LocalRedisCluster implements AutoCloseable {
    public static final int SLOTS = LocalClusterLayout.SLOTS;

    private final List<LocalRedisServer> nodes = new ArrayList<>();
    private final List<RedisEndpoint> admins = new ArrayList<>();

    private LocalRedisCluster() {
    }

    public static LocalRedisCluster start(int primaries) {
        LocalRedisCluster cluster = new LocalRedisCluster();
        try {
            for (int i = 0; i < primaries; i++) {
                LocalRedisServer node = LocalRedisServer.start(LocalClusterLayout.freePortWithBusPort(), List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes-" + UUID.randomUUID() + ".conf", "--cluster-node-timeout", "5000"));
                cluster.nodes.add(node);
                cluster.admins.add(RedisEndpoint.connect(node.url()));
            }
            LocalClusterLayout.assignSlots(primaries, (i, slots) -> get(cluster.admins.get(i).commands().clusterAddSlots(slots)));
            for (int i = 1; i < primaries; i++) {
                get(cluster.admins.get(0).commands().clusterMeet("127.0.0.1", cluster.nodes.get(i).port()));
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(cluster::ready);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private boolean ready() {
        for (RedisEndpoint admin : admins) {
            String info = get(admin.commands().clusterInfo());
            if (!LocalClusterLayout.servesAllSlots(info) || !LocalClusterLayout.knowsNodes(info, nodes.size())) {
                return false;
            }
        }
        return true;
    }

    /** The node that owns a slot (slots are split evenly in node order). */
    public int nodeOfSlot(int slot) {
        return LocalClusterLayout.nodeOfSlot(slot, nodes.size());
    }

    /** {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,...} */
    public String url() {
        return "redis-cluster://" + nodes.stream().map(s -> "127.0.0.1:" + s.port()).collect(Collectors.joining(","));
    }

    public List<LocalRedisServer> nodes() {
        return nodes;
    }

    /** A plain (non-cluster) connection to one node, for checks on that node alone. */
    public RedisEndpoint node(int i) {
        return admins.get(i);
    }

    @Override
    public void close() {
        for (RedisEndpoint a : admins) {
            a.close();
        }
        for (LocalRedisServer node : nodes) {
            node.close();
        }
    }
}
