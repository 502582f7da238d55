package io.delayq.bench;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.api.sync.RedisCommands;

import java.util.List;

/**
 * The loop of the seed articles, as written there:
 * <pre>
 * while true:
 *   ids = ZRANGEBYSCORE key 0 now LIMIT 0 10
 *   if ids is empty: sleep 1 s; continue
 *   for id in ids: ZREM key id; handle(id)
 * </pre>
 * It handles every id it read, whether or not its own ZREM removed it, so two consumers run
 * tasks twice: the harness counts those duplicates.
 */
final class SeedLoopContender extends ClassicZset {
    static final int LIMIT = 10;
    private final int consumers;

    SeedLoopContender(Workbench bench, int consumers) {
        super(bench);
        this.consumers = consumers;
    }

    @Override
    public void startConsumers(Recorder recorder) {
        startThreads(consumers, "seed-loop", connection -> {
            RedisCommands<String, String> redis = connection.sync();
            while (running) {
                List<String> ids = redis.zrangebyscore(KEY, Range.create(0, System.currentTimeMillis()), Limit.create(0, LIMIT));
                if (ids.isEmpty()) {
                    idle();
                    continue;
                }
                for (String id : ids) {
                    redis.zrem(KEY, id);
                    recorder.handled(TaskIds.index(id));
                }
            }
        });
    }
}
