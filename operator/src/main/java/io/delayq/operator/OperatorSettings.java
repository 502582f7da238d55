package io.delayq.operator;

import io.delayq.ProductVersion;


import io.delayq.DurationText;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The operator's own configuration, from environment variables (the Helm chart sets them):
 * <ul>
 *   <li>{@code DELAYQ_WATCH_NAMESPACES}: comma-separated namespaces; empty or absent = all namespaces</li>
 *   <li>{@code DELAYQ_LEADER_ELECTION}: {@code true} to run several replicas with one active (a Lease)</li>
 *   <li>{@code DELAYQ_LEADER_ELECTION_LEASE}: the Lease name, default {@code delayq-operator-leader}</li>
 *   <li>{@code DELAYQ_LEADER_ELECTION_NAMESPACE}: the Lease namespace, default the operator's own</li>
 *   <li>{@code DELAYQ_LEADER_ELECTION_IDENTITY}: this replica's name in the Lease, default {@code HOSTNAME}
 *       (the pod name), else a random id</li>
 *   <li>{@code DELAYQ_LEADER_ELECTION_LEASE_DURATION}, {@code DELAYQ_LEADER_ELECTION_RENEW_DEADLINE},
 *       {@code DELAYQ_LEADER_ELECTION_RETRY_PERIOD}: the {@link LeaderElectionTiming}, default 15s, 10s, 2s</li>
 *   <li>{@code DELAYQ_METRICS_PORT}: port of /metrics, /healthz and /readyz, default 8080 (0 = any free port)</li>
 *   <li>{@code DELAYQ_BACKLOG_INTERVAL}: how often each queue's backlog is read, default 10s</li>
 *   <li>{@code DELAYQ_REDIS_TIMEOUT}: time-out of the operator's Redis commands, default 3s</li>
 *   <li>{@code DELAYQ_WORKER_IMAGE}: the worker image when a DelayQueue names none,
 *       default {@code ghcr.io/delayq/delayq-worker:<operator version>}</li>
 *   <li>{@code DELAYQ_RESHARD_BATCH}: entries one move script call of a migration looks at (1-1000), default 50 (core's Mover.DEFAULT_BATCH)</li>
 * </ul>
 */
public record OperatorSettings(Set<String> watchNamespaces, boolean leaderElection, String leaderLeaseName, String leaderLeaseNamespace,
                               String leaderIdentity, LeaderElectionTiming leaderElectionTiming,
                               int metricsPort, Duration backlogInterval, Duration redisTimeout, String workerImage, int reshardBatch) {

    public static final String DEFAULT_LEADER_LEASE = "delayq-operator-leader";

    public static OperatorSettings fromEnv(Map<String, String> env) {
        String namespaces = env.getOrDefault("DELAYQ_WATCH_NAMESPACES", "");
        Set<String> watch = Arrays.stream(namespaces.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        return new OperatorSettings(watch,
                bool(env, "DELAYQ_LEADER_ELECTION", false),
                env.getOrDefault("DELAYQ_LEADER_ELECTION_LEASE", DEFAULT_LEADER_LEASE),
                blankToNull(env.get("DELAYQ_LEADER_ELECTION_NAMESPACE")),
                blankToNull(env.get("DELAYQ_LEADER_ELECTION_IDENTITY")),
                leaderElectionTiming(env),
                port(env, "DELAYQ_METRICS_PORT", 8080),
                duration(env, "DELAYQ_BACKLOG_INTERVAL", "10s"),
                duration(env, "DELAYQ_REDIS_TIMEOUT", "3s"),
                env.getOrDefault("DELAYQ_WORKER_IMAGE", "ghcr.io/delayq/delayq-worker:" + version()),
                reshardBatch(env));
    }

    public OperatorSettings withMetricsPort(int port) {
        return new OperatorSettings(watchNamespaces, leaderElection, leaderLeaseName, leaderLeaseNamespace, leaderIdentity, leaderElectionTiming, port, backlogInterval, redisTimeout, workerImage, reshardBatch);
    }

    public OperatorSettings withBacklogInterval(Duration interval) {
        return new OperatorSettings(watchNamespaces, leaderElection, leaderLeaseName, leaderLeaseNamespace, leaderIdentity, leaderElectionTiming, metricsPort, interval, redisTimeout, workerImage, reshardBatch);
    }

    public OperatorSettings withReshardBatch(int batch) {
        return new OperatorSettings(watchNamespaces, leaderElection, leaderLeaseName, leaderLeaseNamespace, leaderIdentity, leaderElectionTiming, metricsPort, backlogInterval, redisTimeout, workerImage, batch);
    }

    public boolean watchAllNamespaces() {
        return watchNamespaces.isEmpty();
    }

    /** The operator's version (core's {@link ProductVersion}: one build, one version); {@code latest} when unknown. */
    public static String version() {
        String v = ProductVersion.version();
        return "unknown".equals(v) ? "latest" : v;
    }

    private static LeaderElectionTiming leaderElectionTiming(Map<String, String> env) {
        String durationName = "DELAYQ_LEADER_ELECTION_LEASE_DURATION";
        String deadlineName = "DELAYQ_LEADER_ELECTION_RENEW_DEADLINE";
        String retryName = "DELAYQ_LEADER_ELECTION_RETRY_PERIOD";
        LeaderElectionTiming defaults = LeaderElectionTiming.DEFAULT;
        Duration lease = duration(env, durationName, defaults.leaseDuration().toSeconds() + "s");
        Duration deadline = duration(env, deadlineName, defaults.renewDeadline().toSeconds() + "s");
        Duration retry = duration(env, retryName, defaults.retryPeriod().toSeconds() + "s");
        if (lease.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException(durationName + " must be a whole number of seconds (the Lease stores "
                    + "leaseDurationSeconds), got '" + env.get(durationName) + "'");
        }
        if (deadline.compareTo(lease) >= 0) {
            throw new IllegalArgumentException(deadlineName + " must be shorter than " + durationName
                    + " (a leader must give up before a follower may take the Lease), got " + deadline + " and " + lease);
        }
        long slowestRetryMillis = retry.toMillis() + (long) Math.ceil(retry.toMillis() * LeaderElectionTiming.RETRY_JITTER);
        if (deadline.toMillis() <= slowestRetryMillis) {
            throw new IllegalArgumentException(deadlineName + " must be longer than " + retryName + " with its jitter ("
                    + (1 + LeaderElectionTiming.RETRY_JITTER) + " × " + retry + " = " + Duration.ofMillis(slowestRetryMillis)
                    + "), got " + deadline);
        }
        return new LeaderElectionTiming(lease, deadline, retry);
    }

    private static int reshardBatch(Map<String, String> env) {
        String v = blankToNull(env.get("DELAYQ_RESHARD_BATCH"));
        try {
            int batch = v == null ? io.delayq.reshard.Mover.DEFAULT_BATCH : Integer.parseInt(v);
            if (batch < 1 || batch > 1000) {
                throw new NumberFormatException();
            }
            return batch;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("DELAYQ_RESHARD_BATCH must be a whole number between 1 and 1000 (entries per move script call), got '" + v + "'");
        }
    }

    private static boolean bool(Map<String, String> env, String name, boolean fallback) {
        String v = blankToNull(env.get(name));
        if (v == null) {
            return fallback;
        }
        return switch (v.toLowerCase()) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, got '" + v + "'");
        };
    }

    private static int port(Map<String, String> env, String name, int fallback) {
        String v = blankToNull(env.get(name));
        if (v == null) {
            return fallback;
        }
        try {
            int port = Integer.parseInt(v);
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a port number between 0 and 65535, got '" + v + "'");
        }
    }

    private static Duration duration(Map<String, String> env, String name, String fallback) {
        Duration d = DurationText.require(name, env.getOrDefault(name, fallback));
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be longer than zero, got '" + env.get(name) + "'");
        }
        return d;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
