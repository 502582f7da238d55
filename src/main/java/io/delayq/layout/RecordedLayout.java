package io.delayq.layout;

import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A queue's layout and protocol version as its meta hash records them, read with one HMGET and without
 * creating anything (unlike meta.lua, which records a first shard count). The one place outside the scripts
 * that reads the meta hash's layout fields: clients, the CLI, the console and the worker process all come here.
 */
public record RecordedLayout(Layout layout, long protocol) {
    /** The meta hash's fields in the order {@link Layout#fromMeta} reads them. */
    private static final String[] FIELDS = {"shards", "protocol", "layout", "layouts", "migration", "moved", "left"};

    public int shards() {
        return layout.shards();
    }

    /**
     * @return empty when the queue has no meta hash yet (no worker or producer has touched it)
     * @throws DamagedMetaException (in the stage) when a field holds something that is not a number
     */
    public static CompletionStage<Optional<RecordedLayout>> read(RedisClusterAsyncCommands<String, String> commands, String queue) {
        return commands.hmget(ShardKeys.meta(queue), FIELDS).thenApply(kv -> {
            List<Object> values = new ArrayList<>(FIELDS.length);
            kv.forEach(v -> values.add(v.getValueOrElse(null)));
            if (values.get(0) == null) {
                return Optional.empty();
            }
            return Optional.of(parse(queue, values));
        });
    }

    /** {@link #read} waited for at most {@code timeout}. */
    public static Optional<RecordedLayout> read(RedisEndpoint redis, String queue, Duration timeout) {
        return Replies.await(read(redis.commands(), queue), timeout);
    }

    private static RecordedLayout parse(String queue, List<Object> values) {
        for (int i : new int[]{0, 1, 2, 5, 6}) {
            Object v = values.get(i);
            if (v != null && !v.toString().trim().matches("-?\\d+")) {
                throw new DamagedMetaException(queue, FIELDS[i], v.toString());
            }
        }
        return new RecordedLayout(Layout.fromMeta(values), values.get(1) == null ? 0 : Long.parseLong(values.get(1).toString().trim()));
    }
}
