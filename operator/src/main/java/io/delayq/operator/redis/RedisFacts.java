package io.delayq.operator.redis;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;

import java.util.ArrayList;
import java.util.List;

/**
 * What the operator learnt about a Redis server. {@code UNKNOWN} marks a question the server's
 * ACL refused: that is reported, not treated as unsafe.
 */
public record RedisFacts(String version, String maxmemoryPolicy, String persistence) {
    public static final String UNKNOWN = "unknown";
    public static final String SAFE_POLICY = "noeviction";

    /** Eviction would silently drop queued tasks; Cluster replicas inherit the primary's policy. */
    public boolean evictionUnsafe() {
        return !UNKNOWN.equals(maxmemoryPolicy) && !SAFE_POLICY.equals(maxmemoryPolicy);
    }

    /** Findings that do not stop the queue: reported as a Warning Event and in status, not as Degraded. */
    public List<Problem> warnings() {
        List<Problem> warnings = new ArrayList<>();
        if ("off".equals(persistence)) {
            warnings.add(new Problem(Reason.REDIS_PERSISTENCE_OFF,
                    "Redis persistence is off (no RDB snapshots, no AOF): a Redis restart loses every queued task"));
        }
        return warnings;
    }

    /** The Degraded-worthy finding, if any. */
    public List<Problem> problems() {
        if (!evictionUnsafe()) {
            return List.of();
        }
        return List.of(new Problem(Reason.UNSAFE_EVICTION_POLICY, "Redis maxmemory-policy is " + maxmemoryPolicy
                + ": under memory pressure Redis may evict queued tasks; set maxmemory-policy to noeviction"));
    }
}
