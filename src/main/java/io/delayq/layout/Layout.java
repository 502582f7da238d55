package io.delayq.layout;

import io.delayq.shard.Sharding;

import static io.delayq.redis.Replies.asLong;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A queue's shard layout as its meta hash records it: the epoch (0 for a queue never resharded, +1 when
 * a migration starts, +1 again when it ends), the shard count, while a migration runs the count it grows
 * from, and every count the queue ever had. Pure: where an id-addressed operation must look is decided
 * here (see {@link #lookupOrder}), so the rule is unit-tested without Redis.
 *
 * @param from 0 outside a migration, else the old shard count
 */
public record Layout(long epoch, int shards, int from, List<Integer> history, long moved, long left) {

    public Layout {
        history = List.copyOf(history);
    }

    /** The layout of a queue whose meta has no layout fields (never resharded). */
    public static Layout initial(int shards) {
        return new Layout(0, shards, 0, List.of(shards), 0, -1);
    }

    public boolean migrating() {
        return from > 0;
    }

    /** The shard an id belongs to in this layout (the new one during a migration). */
    public int shardOf(String id) {
        return Sharding.shardOf(id, shards);
    }

    /**
     * The shards an operation on one id tries, in order; the first that holds the id answers.
     * During a migration: the old shard (where the id is, unless the mover took it already), then the new
     * one. Otherwise the id's shard, then its shard under every earlier count, for what a stale
     * hand-written producer or a task in flight during the move left behind.
     */
    public List<Integer> lookupOrder(String id) {
        Set<Integer> order = new LinkedHashSet<>();
        if (migrating()) {
            order.add(Sharding.shardOf(id, from));
        }
        order.add(shardOf(id));
        for (int i = history.size() - 1; i >= 0; i--) {
            order.add(Sharding.shardOf(id, history.get(i)));
        }
        return new ArrayList<>(order);
    }

    /** During a migration, the shard an enqueue asks first with "present only"; -1 when there is none. */
    public int oldShardOf(String id) {
        if (!migrating()) {
            return -1;
        }
        int old = Sharding.shardOf(id, from);
        return old == shardOf(id) ? -1 : old;
    }

    /** Parses the reply of meta.lua: {shards, protocol, layout, layouts, migration, moved, left}. */
    public static Layout fromMeta(List<Object> reply) {
        int shards = (int) asLong(reply.get(0));
        long epoch = reply.size() > 2 ? asLong(reply.get(2)) : 0;
        String layouts = reply.size() > 3 && reply.get(3) != null ? reply.get(3).toString() : "";
        String migration = reply.size() > 4 && reply.get(4) != null ? reply.get(4).toString() : "";
        long moved = reply.size() > 5 ? asLong(reply.get(5)) : 0;
        long left = reply.size() > 6 ? asLong(reply.get(6)) : -1;
        return of(epoch, shards, layouts, migration, moved, left);
    }

    /** From the meta hash's text fields; {@code layouts} "4,16" (empty: never resharded), {@code migration} "4 16" or empty. */
    public static Layout of(long epoch, int shards, String layouts, String migration, long moved, long left) {
        List<Integer> history = new ArrayList<>();
        if (layouts == null || layouts.isBlank()) {
            history.add(shards);
        } else {
            for (String n : layouts.split(",")) {
                history.add(Integer.parseInt(n.trim()));
            }
        }
        int from = 0;
        if (migration != null && !migration.isBlank()) {
            from = Integer.parseInt(migration.trim().split(" ")[0]);
        }
        return new Layout(epoch, shards, from, history, moved, left);
    }

    /** The text a shard's layout stamp holds (include/layout.lua). */
    public String stamp() {
        return epoch + " " + shards + " " + from;
    }

    public String describe() {
        return migrating() ? "epoch " + epoch + ": growing from " + from + " to " + shards + " shards"
                : "epoch " + epoch + ": " + shards + " shards";
    }
}
