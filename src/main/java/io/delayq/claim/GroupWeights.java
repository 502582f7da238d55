package io.delayq.claim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Weights of groups in the claim's round robin (protocol.md, "Groups"): while several groups have tasks due, a group
 * of weight 3 gets three tasks of a claim for every one of a group of weight 1 (a paying tenant ahead of a trial). A
 * group not named weighs 1, as does the set of ungrouped tasks. The weights reach claim.lua as its ARGV[9],
 * {@code "g=3,h=2"}: '=' and ',' cannot occur in a group key.
 */
public record GroupWeights(Map<String, Integer> weights) {
    public static final GroupWeights NONE = new GroupWeights(Map.of());
    public static final int MAX_WEIGHT = 100;
    /** Bounds what one claim's argument carries and parses. */
    public static final int MAX_GROUPS = 100;

    public GroupWeights {
        weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    }

    /**
     * Reads {@code tenant-a=3,tenant-b=2} (blank: none).
     *
     * @param field the name a bad entry is reported under (the setting or spec field it came from)
     */
    public static GroupWeights parse(String field, String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        return new GroupWeights(GroupNumbers.parse(field, text, "weight", 1, MAX_WEIGHT, MAX_GROUPS, "paying=3,trial=1"));
    }

    public boolean any() {
        return weights.values().stream().anyMatch(w -> w != 1);
    }

    /** claim.lua's ARGV[9]: the groups whose weight is not 1. */
    public String wire() {
        StringJoiner out = new StringJoiner(",");
        weights.forEach((group, weight) -> {
            if (weight != 1) {
                out.add(group + "=" + weight);
            }
        });
        return out.toString();
    }

    /** As the setting reads it. */
    @Override
    public String toString() {
        StringJoiner out = new StringJoiner(",");
        weights.forEach((group, weight) -> out.add(group + "=" + weight));
        return out.toString();
    }
}
