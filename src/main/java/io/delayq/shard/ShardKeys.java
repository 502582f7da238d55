package io.delayq.shard;

import java.util.List;

/**
 * The Redis keys of one shard. All share the hash tag {@code {queue:shard}}, so every script call
 * touches one Redis Cluster slot. The order of {@link #scriptKeys()} is the order every Lua
 * script expects (include/shard_keys.lua).
 */
public record ShardKeys(String queue, int shard) {

    public static final int PRIORITY_LEVELS = 3;

    private String key(String suffix) {
        return "dq:{" + queue + ":" + shard + "}:" + suffix;
    }

    /** Due set of a priority level: level 0 is the plain {@code due} key a bare ZADD writes to. */
    public String due(int level) {
        return level == 0 ? key("due") : key("due:p" + level);
    }

    public String inflight() {
        return key("inflight");
    }

    /** The latest progress the handlers of in-flight tasks reported: id → {@code <at ms>|<percent>|<note>} (progress.lua). */
    public String progress() {
        return key("progress");
    }

    /**
     * The prefix of the shard's record hashes, passed to the scripts as {@code KEYS[5]}; no key of this
     * exact name is written (protocol v2). Records live in {@link #recordBucket(int)}.
     */
    public String tasks() {
        return key("tasks");
    }

    /** One of the shard's {@link RecordBuckets#BUCKETS} record hashes: {@code dq:{q:i}:tasks:<bucket>}. */
    public String recordBucket(int bucket) {
        return tasks() + ":" + bucket;
    }

    /** The record hash holding the record of task {@code id} (as the scripts' {@code record_key}). */
    public String record(String id) {
        return recordBucket(RecordBuckets.bucketOf(id));
    }

    public String attempts() {
        return key("attempts");
    }

    public String errors() {
        return key("errors");
    }

    public String dead() {
        return key("dead");
    }

    public String marker() {
        return key("marker");
    }

    public String rate() {
        return key("rate");
    }

    /**
     * ZSET group -> turn (when the group may next be served) of the groups with waiting tasks (protocol.md, "Groups";
     * include/groups.lua derives it, like the group keys below, from {@link #tasks()}).
     */
    public String groups() {
        return key("groups");
    }

    /** ZSET id -> due time of every grouped task waiting on this shard. */
    public String groupedDue() {
        return key("due:g");
    }

    /** ZSET id -> due time of the waiting tasks of one group. */
    public String group(String group) {
        return key("group:" + group);
    }

    /** HASH group -> "<tokens> <at ms>": the token buckets of the per-group rate limit. */
    public String groupRate() {
        return key("grate");
    }

    /**
     * HASH id -> completion record {@code <finished ms>|<attempts>|<handler ms>|<truncated 0/1>|<worker>|<result>} of the
     * tasks acked while results are kept (ack.lua; {@link io.delayq.completion.CompletionRecord}).
     */
    public String done() {
        return key("done");
    }

    /** ZSET id -> finished ms of the records in {@link #done()}: the order they are trimmed in, newest last. */
    public String doneAt() {
        return key("done:at");
    }

    /** The shard's pause flag (HASH, field {@code at} = server ms when paused): while it exists every claim hands out nothing. */
    public String paused() {
        return key("paused");
    }

    /** ZSET id -> ms: ids enqueued with {@link io.delayq.task.DuplicatePolicy#ONCE} or {@code FUTURE_ONCE}, kept a week (enqueue.lua's KEYS[11]). */
    public String once() {
        return key("once");
    }

    /** ZSET id -> end of its dedup window, or minus its length while the task exists (include/dedup.lua). */
    public String dedup() {
        return key("dedup");
    }

    /** HASH, field {@code stamp} = "<epoch> <shards> <from>": the layout this shard belongs to (include/layout.lua). */
    public String layout() {
        return key("layout");
    }

    /** HASH id -> state of the tasks the mover took out of this shard and has not yet delivered. */
    public String moving() {
        return key("moving");
    }

    /** Counter of this shard's move batches (move_out.lua). */
    public String moveSeq() {
        return key("moveseq");
    }

    /** HASH source shard -> last batch seq written here (move_in.lua applies a batch once). */
    public String arrived() {
        return key("arrived");
    }

    public String claimRequest(String requestId) {
        return key("claim:" + requestId);
    }

    public String extendRequest(String requestId) {
        return key("extend:" + requestId);
    }

    public List<String> scriptKeys() {
        return List.of(due(0), due(1), due(2), inflight(), tasks(), attempts(), errors(), dead(), marker(), rate());
    }

    /**
     * ZSET permit id -> expiry (ms, Redis clock): the running tasks of a group capped at N running across the fleet
     * (group_permits.lua). In the queue's slot, not a shard's: a group's tasks are on every shard.
     */
    public static String running(String queue, String group) {
        return "dq:{" + queue + "}:running:" + group;
    }

    /** The queue-wide meta hash; its hash tag is the queue name alone. */
    public static String meta(String queue) {
        return "dq:{" + queue + "}:meta";
    }
}
