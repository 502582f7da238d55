package io.delayq.localredis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a Redis Cluster of local {@link LocalRedisServer} nodes is laid out: ports with a free cluster-bus
 * port, the 16384 slots split evenly over the primaries in node order, and what CLUSTER INFO says once
 * the cluster serves them all. Shared by the core test cluster and the chaos suite's replicated cluster,
 * which talk to their nodes each in their own way.
 */
public final class LocalClusterLayout {
    public static final int SLOTS = 16384;
    /** CLUSTER ADDSLOTS in batches (not ADDSLOTSRANGE) so that the embedded Redis 6.2 works too. */
    private static final int ADDSLOTS_BATCH = 1000;

    private LocalClusterLayout() {
    }

    /** Sends one CLUSTER ADDSLOTS for {@code slots} to primary {@code node}. */
    @FunctionalInterface
    public interface AddSlots {
        void on(int node, int[] slots);
    }

    /** Splits all slots evenly over primaries 0 … {@code primaries} - 1, in batches of CLUSTER ADDSLOTS. */
    public static void assignSlots(int primaries, AddSlots addSlots) {
        for (int node = 0; node < primaries; node++) {
            int from = firstSlot(node, primaries);
            int to = firstSlot(node + 1, primaries);
            for (int chunk = from; chunk < to; chunk += ADDSLOTS_BATCH) {
                int[] slots = new int[Math.min(ADDSLOTS_BATCH, to - chunk)];
                for (int s = 0; s < slots.length; s++) {
                    slots[s] = chunk + s;
                }
                addSlots.on(node, slots);
            }
        }
    }

    /** The primary that {@link #assignSlots} gave {@code slot} to. */
    public static int nodeOfSlot(int slot, int primaries) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot must be in 0.." + (SLOTS - 1) + ", got " + slot);
        }
        for (int node = 0; node < primaries; node++) {
            if (slot < firstSlot(node + 1, primaries)) {
                return node;
            }
        }
        throw new IllegalArgumentException("slot " + slot);
    }

    private static int firstSlot(int node, int primaries) {
        return node * SLOTS / primaries;
    }

    /** Whether a node's CLUSTER INFO says the cluster is ok with every slot served. */
    public static boolean servesAllSlots(String clusterInfo) {
        return clusterInfo.contains("cluster_state:ok") && clusterInfo.contains("cluster_slots_ok:" + SLOTS);
    }

    /** Whether a node's CLUSTER INFO says it knows {@code nodes} nodes (CLUSTER MEET has spread). */
    public static boolean knowsNodes(String clusterInfo, int nodes) {
        return clusterInfo.contains("cluster_known_nodes:" + nodes);
    }

    /** A free loopback port p whose cluster bus port p + 10000 is free too (Redis 6.2 cannot choose another). */
    public static int freePortWithBusPort() {
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
}
