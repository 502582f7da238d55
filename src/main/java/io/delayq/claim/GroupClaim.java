package io.delayq.claim;

import java.util.List;
import java.util.Map;

/**
 * What a claim needs to share its batch between groups (protocol.md, "Groups"): the per-group rate limit on this shard
 * ({@code perSecond} tasks a second per group, bursts of {@code burst}; 0: none), the groups' weights, the groups
 * capped at N running and the permits the caller holds for them (group -> count, taken with {@link RunningPermits}).
 */
public record GroupClaim(double perSecond, int burst, GroupWeights weights, GroupCaps caps, Map<String, Integer> permits) {
    public static final GroupClaim NONE = new GroupClaim(0, 0, GroupWeights.NONE, GroupCaps.NONE, Map.of());

    public GroupClaim {
        permits = Map.copyOf(permits);
    }

    /** Whether any of it differs from an ungrouped claim's defaults. */
    public boolean any() {
        return perSecond > 0 || weights.any() || caps.any();
    }

    /** As the claim scripts read them: rate, burst, weights, capped groups, permits. */
    public List<String> wire() {
        return List.of(String.valueOf(perSecond), String.valueOf(burst), weights.wire(), caps.any() ? caps.wire() : "",
                RunningPermits.wire(permits));
    }
}
