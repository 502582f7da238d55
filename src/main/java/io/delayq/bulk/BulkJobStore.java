package io.delayq.bulk;

import io.delayq.InvalidInputException;
import io.delayq.redis.Replies;
import io.lettuce.core.KeyValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes bulk jobs in the queue's slot ({@link BulkKeys}): the job's own record and the queue's list of jobs. */
final class BulkJobStore {
    private static final String[] FIELDS = {"state", "prefix", "from", "to", "group", "priority", "action", "ms", "reason",
            "status", "total", "done", "skipped", "epoch", "shards", "created", "by", "updated", "note"};

    private final RedisClusterAsyncCommands<String, String> redis;
    private final String queue;
    private final Duration timeout;

    BulkJobStore(RedisClusterAsyncCommands<String, String> redis, String queue, Duration timeout) {
        this.redis = redis;
        this.queue = queue;
        this.timeout = timeout;
    }

    void create(BulkJob job) {
        BulkFilter f = job.filter();
        Map<String, String> h = new LinkedHashMap<>();
        h.put("state", f.state().wire());
        h.put("prefix", f.prefix());
        h.put("from", f.from() == null ? "" : String.valueOf(f.from().toEpochMilli()));
        h.put("to", f.to() == null ? "" : String.valueOf(f.to().toEpochMilli()));
        h.put("group", f.group() == null ? "" : f.group());
        h.put("priority", f.priority() == null ? "" : String.valueOf(f.priority()));
        h.put("action", job.action().kind().wire());
        h.put("ms", String.valueOf(job.action().millis()));
        h.put("reason", job.action().reason());
        h.put("total", String.valueOf(job.total()));
        h.put("epoch", String.valueOf(job.epoch()));
        h.put("shards", String.valueOf(job.shards()));
        h.put("created", String.valueOf(job.createdAt()));
        h.put("by", job.by());
        progress(job.id(), job.status(), job.done(), job.skipped(), job.updatedAt(), job.note(), h);
        Replies.await(redis.zadd(BulkKeys.jobs(queue), job.createdAt(), job.id()), timeout);
    }

    void progress(String id, BulkJob.Status status, long done, long skipped, long at, String note) {
        progress(id, status, done, skipped, at, note, new LinkedHashMap<>());
    }

    /** A new layout epoch for a job resumed after a reshard of a queue it had not finished. */
    void relayout(String id, long epoch, int shards) {
        Replies.await(redis.hset(BulkKeys.job(queue, id), Map.of("epoch", String.valueOf(epoch), "shards", String.valueOf(shards))), timeout);
    }

    private void progress(String id, BulkJob.Status status, long done, long skipped, long at, String note, Map<String, String> h) {
        h.put("status", status.label());
        h.put("done", String.valueOf(done));
        h.put("skipped", String.valueOf(skipped));
        h.put("updated", String.valueOf(at));
        h.put("note", note == null ? "" : note);
        Replies.await(redis.hset(BulkKeys.job(queue, id), h), timeout);
    }

    BulkJob read(String id) {
        if (id == null || !id.matches("[A-Za-z0-9]{1,40}")) {
            throw new InvalidInputException("job", "must be a bulk job id as 'delayq tasks bulk' printed it (letters and digits), got '" + id + "'");
        }
        List<KeyValue<String, String>> kv = Replies.await(redis.hmget(BulkKeys.job(queue, id), FIELDS), timeout);
        Map<String, String> h = new HashMap<>();
        kv.forEach(e -> h.put(e.getKey(), e.getValueOrElse("")));
        if (h.get("action").isEmpty()) {
            throw new InvalidInputException("job", "no bulk job '" + id + "' in queue '" + queue + "' (no hash " + BulkKeys.job(queue, id) + ")");
        }
        BulkFilter filter = new BulkFilter(BulkState.parse(h.get("state")), h.get("prefix"), instant(h.get("from")), instant(h.get("to")),
                h.get("group"), h.get("priority").isEmpty() ? null : Integer.valueOf(h.get("priority")));
        BulkAction.Kind kind = BulkAction.Kind.parse(h.get("action"));
        BulkAction action = new BulkAction(kind, Long.parseLong(h.get("ms")), h.get("reason"));
        return new BulkJob(id, queue, filter, action, BulkJob.Status.valueOf(h.get("status").toUpperCase(java.util.Locale.ROOT)),
                num(h.get("total")), num(h.get("done")), num(h.get("skipped")), num(h.get("epoch")), (int) num(h.get("shards")),
                num(h.get("created")), h.get("by"), num(h.get("updated")), h.get("note"));
    }

    /** The newest jobs first, at most {@code limit}. */
    List<BulkJob> list(int limit) {
        // ZCARD and ZRANGE, not ZREVRANGE: the console's documented ACL user has these (docs/security.md)
        long count = Replies.await(redis.zcard(BulkKeys.jobs(queue)), timeout);
        List<String> ids = new ArrayList<>(Replies.await(redis.zrange(BulkKeys.jobs(queue), Math.max(0, count - limit), -1), timeout));
        java.util.Collections.reverse(ids);
        List<BulkJob> jobs = new ArrayList<>();
        for (String id : ids) {
            try {
                jobs.add(read(id));
            } catch (InvalidInputException gone) {
                // listed but deleted by hand: not a job any more
            }
        }
        return jobs;
    }

    private static Instant instant(String ms) {
        return ms == null || ms.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(ms));
    }

    private static long num(String s) {
        return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
    }
}
