package io.delayq.worker.presence;

import io.delayq.presence.PresenceRegistry;
import io.delayq.shard.ShardRange;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.lease.Leased;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells the queue's presence registry that this worker is alive: its id, shard range, version and
 * the leases it holds (ids with their fencing tokens), every {@link Params#interval}, with a TTL of
 * three intervals. The console shows workers and lease holders from it. Advisory only: a failed beat
 * is logged and the next one tries again; claims never depend on it.
 */
public final class PresenceHeartbeat implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(PresenceHeartbeat.class);
    public static final Duration INTERVAL = Duration.ofSeconds(5);

    /**
     * @param id       this worker's id in the registry (unique per process: host name and a random suffix)
     * @param inflight  the leases this worker holds now
     * @param delivered deliveries this worker settled since it started (its own delayq_tasks_total): the operator's
     *                  Forecast autoscaling derives each replica's throughput from two heartbeats
     */
    public record Params(PresenceRegistry registry, String id, ShardRange shards, String version, String host, InflightRegistry inflight,
                         Duration interval, java.util.function.LongSupplier delivered) {
        public Duration ttl() {
            return interval.multipliedBy(3);
        }
    }

    private final Params params;
    private volatile boolean failing;

    public PresenceHeartbeat(Params params) {
        this.params = params;
    }

    @Override
    public void run() {
        try {
            List<PresenceRegistry.HeldLease> held = new ArrayList<>();
            int total = 0;
            for (Leased l : params.inflight().all()) {
                total++;
                if (held.size() < PresenceRegistry.MAX_REPORTED_LEASES) {
                    held.add(new PresenceRegistry.HeldLease(l.id(), l.task().token()));
                }
            }
            // not awaited: the timer thread also renews leases
            params.registry().beatAsync(params.id(), params.shards(), params.version(), params.host(), params.ttl(), total, held,
                            params.delivered().getAsLong())
                    .whenComplete((at, e) -> outcome(e));
        } catch (RuntimeException e) {
            outcome(e);
        }
    }

    private void outcome(Throwable e) {
        if (e == null && failing) {
            LOG.info("presence heartbeat works again");
            failing = false;
        } else if (e != null && !failing) {
            LOG.warn("presence heartbeat failed (the console will not list this worker until it works again): {}", e.toString());
            failing = true;
        }
    }

    public String id() {
        return params.id();
    }

    /** A clean stop takes this worker off the registry at once instead of after its TTL. */
    public void leave() {
        try {
            params.registry().leave(params.id());
        } catch (RuntimeException e) {
            LOG.debug("presence leave failed (the entry expires with its TTL): {}", e.toString());
        }
    }

    /** Host name (the pod's name in Kubernetes) and 6 random hex digits: a restarted container is a new worker. */
    public static String newId(String host) {
        byte[] b = new byte[3];
        new java.security.SecureRandom().nextBytes(b);
        return host + "-" + java.util.HexFormat.of().formatHex(b);
    }

    public static String hostName() {
        String h = System.getenv("HOSTNAME");
        if (h != null && !h.isBlank()) {
            return h.trim();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "worker";
        }
    }
}
