package io.delayq.claim;

import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;
import io.delayq.shard.ShardKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The permits of groups capped at N running across the fleet ({@link GroupCaps}), kept in the queue's slot by
 * group_permits.lua: a worker takes one per task of a capped group before a claim may hand that task out, extends it
 * with the task's lease and gives it back when the task settles. A permit expires {@code hold} after it was taken or
 * extended, so a worker killed while holding some frees them as its leases run out.
 */
public final class RunningPermits {
    private final ScriptRunner scripts;
    private final String queue;

    public RunningPermits(ScriptRunner scripts, String queue) {
        this.scripts = scripts;
        this.queue = queue;
    }

    /**
     * What one call changes for one group.
     *
     * @param cap     the group's cap (used when permits are wanted)
     * @param release permit ids given back
     * @param extend  permit id -> new expiry (ms, Redis clock); never shortens one
     * @param want    fresh, unique permit ids the caller would take (a re-sent call takes no more than the first)
     */
    public record Change(String group, int cap, List<String> release, Map<String, Long> extend, List<String> want) {
        public static Change release(String group, List<String> ids) {
            return new Change(group, 0, ids, Map.of(), List.of());
        }

        public static Change take(String group, int cap, List<String> ids) {
            return new Change(group, cap, List.of(), Map.of(), ids);
        }

        public static Change extend(String group, Map<String, Long> until) {
            return new Change(group, 0, List.of(), until, List.of());
        }
    }

    /**
     * Applies the changes in one call; answers, per group that wanted permits, the ids the caller holds now.
     *
     * @param hold how long a permit taken by this call lasts unless extended (the lease plus a margin)
     */
    public CompletionStage<Map<String, List<String>>> apply(Duration hold, List<Change> changes) {
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        List<String> keys = new ArrayList<>(changes.size());
        List<String> args = new ArrayList<>();
        args.add(String.valueOf(hold.toMillis()));
        for (Change c : changes) {
            keys.add(ShardKeys.running(queue, c.group()));
            args.add(String.valueOf(c.cap()));
            args.add(String.valueOf(c.release().size()));
            args.addAll(c.release());
            args.add(String.valueOf(c.extend().size()));
            c.extend().forEach((id, until) -> {
                args.add(id);
                args.add(String.valueOf(until));
            });
            args.add(String.valueOf(c.want().size()));
            args.addAll(c.want());
        }
        return scripts.<List<Object>>run(LuaScript.GROUP_PERMITS, keys, args).thenApply(reply -> {
            Map<String, List<String>> granted = new LinkedHashMap<>();
            for (int i = 0; i < changes.size(); i++) {
                if (!changes.get(i).want().isEmpty()) {
                    @SuppressWarnings("unchecked")
                    List<Object> ids = (List<Object>) reply.get(i);
                    granted.put(changes.get(i).group(), ids.stream().map(String.class::cast).toList());
                }
            }
            return granted;
        });
    }

    /** One permit a worker holds for one running task of a capped group. */
    public record Permit(String group, String id) {
    }

    /** claim.lua's ARGV[11]: group=count of the permits held for one claim. */
    public static String wire(Map<String, Integer> permits) {
        StringJoiner out = new StringJoiner(",");
        permits.forEach((group, n) -> {
            if (n > 0) {
                out.add(group + "=" + n);
            }
        });
        return out.toString();
    }
}
