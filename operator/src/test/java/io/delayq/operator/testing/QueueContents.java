package io.delayq.operator.testing;

import io.delayq.redis.RedisEndpoint;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What a queue's waiting sets hold, read straight from Redis: where each id sits, to check a migration's result. */
public final class QueueContents {
    private QueueContents() {
    }

    /** Every waiting id (all priorities) on shards 0..shards-1, with the shards holding it (more than one: a duplicate). */
    public static Map<String, List<Integer>> waiting(RedisEndpoint redis, String queue, int shards) throws Exception {
        Map<String, List<Integer>> where = new HashMap<>();
        for (int shard = 0; shard < shards; shard++) {
            ShardKeys keys = new ShardKeys(queue, shard);
            for (int priority = 0; priority <= 2; priority++) {
                for (String id : redis.commands().zrange(keys.due(priority), 0, -1).get(5, TimeUnit.SECONDS)) {
                    where.computeIfAbsent(id, k -> new ArrayList<>()).add(shard);
                }
            }
        }
        return where;
    }

    /** Ids not on exactly one shard, or not on their own shard of {@code shards}: what a finished migration must not leave. */
    public static List<String> misplaced(Map<String, List<Integer>> where, int shards) {
        List<String> wrong = new ArrayList<>();
        where.forEach((id, at) -> {
            if (at.size() != 1 || at.get(0) != Sharding.shardOf(id, shards)) {
                wrong.add(id + " on " + at);
            }
        });
        return wrong;
    }

    /**
     * Ids on their shard of the old count {@code from} instead of the new one after a migration: strays, which every
     * id operation still finds (it looks under every count the queue had) and the workers still fire.
     */
    public static List<String> strays(Map<String, List<Integer>> where, int from, int to) {
        List<String> stray = new ArrayList<>();
        where.forEach((id, at) -> {
            if (at.size() == 1 && at.get(0) != Sharding.shardOf(id, to) && at.get(0) == Sharding.shardOf(id, from)) {
                stray.add(id + " on " + at);
            }
        });
        return stray;
    }

    /**
     * After a grow from {@code from} to {@code to}: the ids that are not once on their new shard, leaving out strays
     * that the client still finds by id. A pass of the mover looks at each set by index, and claims that remove
     * tasks ahead of its cursor shift the rest, so under claim load a few tasks can stay on their old shard (strays:
     * fired there, found by every id operation, which looks under every count the queue had); printed, not failed.
     */
    public static List<String> notOnTheirShard(Map<String, List<Integer>> where, int from, int to, io.delayq.client.DelayQueueClient finder) {
        List<String> stray = strays(where, from, to);
        System.out.println("strays left on their old shard: " + stray.size() + (stray.isEmpty() ? "" : " e.g. " + stray.get(0)));
        List<String> wrong = new ArrayList<>(misplaced(where, to));
        wrong.removeAll(stray);
        for (String s : stray) {
            String id = s.substring(0, s.indexOf(' '));
            if (finder.inspect(id).state() != io.delayq.task.TaskInfo.State.SCHEDULED) {
                wrong.add(s + " (not found by id)");
            }
        }
        return wrong;
    }
}
