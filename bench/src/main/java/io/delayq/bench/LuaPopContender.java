package io.delayq.bench;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

import java.util.List;

/**
 * The classic Lua batch pop: ZRANGEBYSCORE and ZREM of up to 100 due members in one script, 1 s
 * sleep when nothing is due. A task is gone from Redis before it is handled, so a crash loses it
 * (at-most-once): its drain rate is the ceiling of designs without acks, not a peer of delayq's.
 */
final class LuaPopContender extends ClassicZset {
    static final int BATCH = 100;
    static final String POP = """
            local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
            if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
            return ids
            """;
    private final int consumers;

    LuaPopContender(Workbench bench, int consumers) {
        super(bench);
        this.consumers = consumers;
    }

    @Override
    public void startConsumers(Recorder recorder) {
        startThreads(consumers, "lua-pop", connection -> {
            RedisCommands<String, String> redis = connection.sync();
            String sha = redis.scriptLoad(POP);
            String[] keys = {KEY};
            while (running) {
                List<String> ids = redis.evalsha(sha, ScriptOutputType.MULTI, keys,
                        String.valueOf(System.currentTimeMillis()), String.valueOf(BATCH));
                if (ids.isEmpty()) {
                    idle();
                    continue;
                }
                for (String id : ids) {
                    recorder.handled(TaskIds.index(id));
                }
            }
        });
    }
}
