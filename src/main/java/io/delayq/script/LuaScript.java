package io.delayq.script;

import io.lettuce.core.ScriptOutputType;

import java.util.List;

/**
 * One queue operation of protocol 2, one Lua file under {@code delayq/lua/}; its helpers live in
 * {@code delayq/lua/include/} ({@link LuaSource}). Protocol 3's scripts are {@link io.delayq.bucket.BucketScript}.
 */
public enum LuaScript implements Script {
    META("meta", ScriptOutputType.MULTI),
    ENQUEUE("enqueue", ScriptOutputType.MULTI),
    CLAIM("claim", ScriptOutputType.MULTI),
    GROUP_PERMITS("group_permits", ScriptOutputType.MULTI),
    ACK("ack", ScriptOutputType.MULTI),
    RETRY("retry", ScriptOutputType.MULTI),
    EXTEND("extend", ScriptOutputType.MULTI),
    PROGRESS("progress", ScriptOutputType.INTEGER),
    RECLAIM("reclaim", ScriptOutputType.MULTI),
    CANCEL("cancel", ScriptOutputType.VALUE),
    RESCHEDULE("reschedule", ScriptOutputType.MULTI),
    INSPECT("inspect", ScriptOutputType.MULTI),
    STATS("stats", ScriptOutputType.MULTI),
    DEAD_LIST("dead_list", ScriptOutputType.MULTI),
    DEAD_REPLAY("dead_replay", ScriptOutputType.INTEGER),
    DEAD_PURGE("dead_purge", ScriptOutputType.INTEGER),
    BROWSE("browse", ScriptOutputType.MULTI),
    FORECAST("forecast", ScriptOutputType.MULTI),
    PAUSE("pause", ScriptOutputType.MULTI),
    SHARD_PAUSE("shard_pause", ScriptOutputType.INTEGER),
    SCHEDULE_PUT("schedule_put", ScriptOutputType.MULTI),
    SCHEDULE_REMOVE("schedule_remove", ScriptOutputType.INTEGER),
    SCHEDULE_ADVANCE("schedule_advance", ScriptOutputType.INTEGER),
    WORKER_BEAT("worker_beat", ScriptOutputType.MULTI),
    SCHEDULE_TAKE("schedule_take", ScriptOutputType.MULTI),
    RESHARD_BEGIN("reshard_begin", ScriptOutputType.MULTI),
    RESHARD_FINISH("reshard_finish", ScriptOutputType.INTEGER),
    MOVE_OUT("move_out", ScriptOutputType.MULTI),
    MOVE_IN("move_in", ScriptOutputType.MULTI),
    MOVE_DONE("move_done", ScriptOutputType.INTEGER),
    RESHARD_LEASE("reshard_lease", ScriptOutputType.MULTI),
    BULK_PREVIEW("bulk_preview", ScriptOutputType.MULTI),
    BULK_APPLY("bulk_apply", ScriptOutputType.MULTI),
    BULK_JOB("bulk_job", ScriptOutputType.INTEGER);

    private final String file;
    private final ScriptOutputType outputType;
    private final LuaSource source;

    LuaScript(String file, ScriptOutputType outputType) {
        this.file = file;
        this.outputType = outputType;
        this.source = new LuaSource("delayq/lua/" + file + ".lua", List.of("delayq/lua/include/"));
    }

    @Override
    public ScriptOutputType outputType() {
        return outputType;
    }

    public String fileName() {
        return file + ".lua";
    }

    @Override
    public String source() {
        return source.source();
    }

    @Override
    public String sha() {
        return source.sha();
    }
}
