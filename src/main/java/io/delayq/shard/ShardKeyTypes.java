package io.delayq.shard;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The Redis type each fixed key of a shard must have. A key of another type (a producer that wrote
 * {@code SET dq:{q:0}:due ...}) makes every script that touches it fail with WRONGTYPE, so the worker
 * and {@code delayq check} name the key instead of repeating Redis' anonymous error. Record buckets
 * are not listed: a bucket of the wrong type costs only its own tasks, which the claim dead-letters.
 */
public final class ShardKeyTypes {
    private ShardKeyTypes() {
    }

    /** Key → the type it must have when it exists. */
    public static Map<String, String> expected(ShardKeys k) {
        Map<String, String> types = new LinkedHashMap<>();
        for (int level = 0; level < ShardKeys.PRIORITY_LEVELS; level++) {
            types.put(k.due(level), "zset");
        }
        types.put(k.inflight(), "zset");
        types.put(k.attempts(), "hash");
        types.put(k.errors(), "hash");
        types.put(k.dead(), "zset");
        types.put(k.marker(), "zset");
        types.put(k.rate(), "hash");
        types.put(k.groups(), "zset");
        types.put(k.groupedDue(), "zset");
        types.put(k.groupRate(), "hash");
        return types;
    }

    /** One line per key of the wrong type ("dq:{q:0}:due is a string, not a zset"); empty when all are right. */
    public static CompletionStage<List<String>> problems(RedisClusterAsyncCommands<String, String> redis, ShardKeys k) {
        Map<String, String> expected = expected(k);
        Map<String, CompletableFuture<String>> found = new LinkedHashMap<>();
        expected.keySet().forEach(key -> found.put(key, redis.type(key).toCompletableFuture()));
        return CompletableFuture.allOf(found.values().toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<String> wrong = new ArrayList<>();
            expected.forEach((key, want) -> {
                String type = found.get(key).join();
                if (!"none".equals(type) && !want.equals(type)) {
                    wrong.add(key + " is a " + type + ", not a " + want);
                }
            });
            return wrong;
        });
    }
}
