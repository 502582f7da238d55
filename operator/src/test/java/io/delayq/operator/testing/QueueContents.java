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
}
