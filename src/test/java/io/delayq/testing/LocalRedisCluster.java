package io.delayq.testing;

import io.delayq.redis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import static io.delayq.testing.TestQueue.get;
import static org.awaitility.Awaitility.await;

/**
 * A real Redis Cluster of {@code n} primaries (no replicas) on loopback: every node its own
 * {@code redis-server} process, the 16384 slots split evenly, nodes introduced with CLUSTER MEET.
 * Uses CLUSTER ADDSLOTS in chunks (not ADDSLOTSRANGE) so that the embedded Redis 6.2 works too.
 */
public final class LocalRedisCluster implements AutoCloseable {
    public static final int SLOTS = 16384;

    private final List<LocalRedisServer> nodes = new ArrayList<>();
    private final List<RedisEndpoint> admins = new ArrayList<>();

    private LocalRedisCluster() {
    }

    public static LocalRedisCluster start(int primaries) {
        LocalRedisCluster cluster = new LocalRedisCluster();
        try {
            for (int i = 0; i < primaries; i++) {
                // the cluster bus listens on port + 10000 (Redis 6.2 cannot choose it), so both must be free
                LocalRedisServer node = LocalRedisServer.start(freePortWithBusPort(), List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes-" + UUID.randomUUID() + ".conf", "--cluster-node-timeout", "5000"));
                cluster.nodes.add(node);
                cluster.admins.add(RedisEndpoint.connect(node.url()));
            }
            cluster.assignSlots();
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

    private void assignSlots() {
        int n = nodes.size();
        for (int i = 0; i < n; i++) {
            int from = i * SLOTS / n;
            int to = (i + 1) * SLOTS / n;
            for (int chunk = from; chunk < to; chunk += 1000) {
                int[] slots = new int[Math.min(1000, to - chunk)];
                for (int s = 0; s < slots.length; s++) {
                    slots[s] = chunk + s;
                }
                get(admins.get(i).commands().clusterAddSlots(slots));
            }
        }
    }

    private boolean ready() {
        for (RedisEndpoint admin : admins) {
            String info = get(admin.commands().clusterInfo());
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:" + SLOTS)
                    || !info.contains("cluster_known_nodes:" + nodes.size())) {
                return false;
            }
        }
        return true;
    }

    /** The node that owns a slot (slots are split evenly in node order). */
    public int nodeOfSlot(int slot) {
        int n = nodes.size();
        for (int i = 0; i < n; i++) {
            if (slot >= i * SLOTS / n && slot < (i + 1) * SLOTS / n) {
                return i;
            }
        }
        throw new IllegalArgumentException("slot " + slot);
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

    static int freePortWithBusPort() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 45_000);
            if (free(port) && free(port + 10_000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port pair (p, p + 10000) found for a cluster node");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
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
