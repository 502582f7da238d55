package io.delayq.claim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * At most N running tasks per group across the whole fleet (protocol.md, "Groups capped at N running"): a payout per
 * account, a sync per tenant, a webhook target that takes five calls at a time. {@code everyGroup} caps each group
 * (0: none unless named), {@code overrides} give named groups their own cap. A claim hands out a capped group's tasks
 * only against permits taken in the queue's slot ({@link RunningPermits}); claim.lua learns which groups are capped
 * from {@link #wire()}.
 */
public record GroupCaps(int everyGroup, Map<String, Integer> overrides) {
    public static final GroupCaps NONE = new GroupCaps(0, Map.of());
    public static final int MAX_CAP = 10_000;
    /** Bounds what one claim's argument carries and parses. */
    public static final int MAX_GROUPS = 100;

    public GroupCaps {
        if (everyGroup < 0 || everyGroup > MAX_CAP) {
            throw new IllegalArgumentException("everyGroup must be 0 to " + MAX_CAP + ", got " + everyGroup);
        }
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }

    /**
     * Reads a cap for every group (0: none) and {@code tenant-a=1,tenant-b=5} (blank: none).
     *
     * @param overridesField the name a bad override is reported under (the setting or spec field it came from)
     */
    public static GroupCaps parse(int everyGroup, String overridesField, String text) {
        if (text == null || text.isBlank()) {
            return everyGroup == 0 ? NONE : new GroupCaps(everyGroup, Map.of());
        }
        return new GroupCaps(everyGroup, GroupNumbers.parse(overridesField, text, "cap", 1, MAX_CAP, MAX_GROUPS, "payouts=1,webhooks=5"));
    }

    public boolean any() {
        return everyGroup > 0 || !overrides.isEmpty();
    }

    /** The most tasks of {@code group} running at once across the fleet, 0 when it has no cap. */
    public int capOf(String group) {
        return overrides.getOrDefault(group, everyGroup);
    }

    /** claim.lua's ARGV[10]: {@code *} when every group is capped, else the capped groups. */
    public String wire() {
        if (everyGroup > 0) {
            return "*";
        }
        return String.join(",", overrides.keySet());
    }

    /** As the settings read it. */
    @Override
    public String toString() {
        StringJoiner out = new StringJoiner(",");
        overrides.forEach((group, cap) -> out.add(group + "=" + cap));
        return (everyGroup > 0 ? "every group " + everyGroup : "no cap") + (overrides.isEmpty() ? "" : ", " + out);
    }
}
