package io.delayq.bucket;

import io.delayq.script.LuaSource;
import io.delayq.script.Script;
import io.lettuce.core.ScriptOutputType;

import java.util.List;

/**
 * Protocol 3's scripts, one Lua file each under {@code delayq/lua/p3/}; helpers come from {@code p3/include/}, then
 * from protocol 2's {@code include/} (the id hash). Each file's header gives its KEYS, ARGV and reply.
 */
public enum BucketScript implements Script {
    ENQUEUE("enqueue", ScriptOutputType.MULTI),
    ENQUEUE_POLICY("enqueue_policy", ScriptOutputType.MULTI),
    CLAIM("claim", ScriptOutputType.MULTI),
    ACK("ack", ScriptOutputType.MULTI),
    RETRY("retry", ScriptOutputType.MULTI),
    EXTEND("extend", ScriptOutputType.INTEGER),
    RECLAIM("reclaim", ScriptOutputType.MULTI),
    CANCEL("cancel", ScriptOutputType.VALUE),
    INSPECT("inspect", ScriptOutputType.MULTI),
    RESCHEDULE("reschedule", ScriptOutputType.MULTI),
    DEAD_LIST("dead_list", ScriptOutputType.MULTI),
    DEAD_REPLAY("dead_replay", ScriptOutputType.INTEGER),
    DEAD_PURGE("dead_purge", ScriptOutputType.INTEGER),
    PROGRESS("progress", ScriptOutputType.INTEGER),
    STATS("stats", ScriptOutputType.MULTI),
    BROWSE("browse", ScriptOutputType.MULTI),
    UPGRADE_BEGIN("upgrade_begin", ScriptOutputType.INTEGER),
    UPGRADE_STEP("upgrade_step", ScriptOutputType.MULTI),
    BULK_PREVIEW("bulk_preview", ScriptOutputType.MULTI),
    BULK_APPLY("bulk_apply", ScriptOutputType.MULTI),
    FORECAST("forecast", ScriptOutputType.MULTI),
    MOVE_OUT("move_out", ScriptOutputType.MULTI),
    MOVE_IN("move_in", ScriptOutputType.MULTI);

    private final String file;
    private final ScriptOutputType outputType;
    private final LuaSource source;

    BucketScript(String file, ScriptOutputType outputType) {
        this.file = file;
        this.outputType = outputType;
        this.source = new LuaSource(path(), List.of("delayq/lua/p3/include/", "delayq/lua/include/"));
    }

    public String path() {
        return "delayq/lua/p3/" + file + ".lua";
    }

    @Override
    public String source() {
        return source.source();
    }

    @Override
    public String sha() {
        return source.sha();
    }

    @Override
    public ScriptOutputType outputType() {
        return outputType;
    }
}
