package io.delayq.script;

import io.delayq.DelayQueueException;
import io.lettuce.core.ScriptOutputType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One queue operation, one Lua file under {@code delayq/lua/}. Shared helpers live in
 * {@code delayq/lua/include/} and are pasted in where a script says {@code --@include name.lua},
 * so each script stays self-contained for Redis while the helpers are written once.
 */
public enum LuaScript {
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

    private static final Pattern INCLUDE = Pattern.compile("(?m)^--@include (\\S+)$");

    private final String file;
    private final ScriptOutputType outputType;
    private volatile String source;
    private volatile String sha;

    LuaScript(String file, ScriptOutputType outputType) {
        this.file = file;
        this.outputType = outputType;
    }

    public ScriptOutputType outputType() {
        return outputType;
    }

    public String fileName() {
        return file + ".lua";
    }

    public String source() {
        if (source == null) {
            String raw = read("delayq/lua/" + fileName());
            Matcher m = INCLUDE.matcher(raw);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(read("delayq/lua/include/" + m.group(1))));
            }
            m.appendTail(out);
            source = out.toString();
        }
        return source;
    }

    public String sha() {
        if (sha == null) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-1").digest(source().getBytes(StandardCharsets.UTF_8));
                sha = HexFormat.of().formatHex(digest);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return sha;
    }

    private static String read(String resource) {
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new DelayQueueException("Lua script resource missing from the classpath: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DelayQueueException("cannot read Lua script " + resource, e);
        }
    }
}
