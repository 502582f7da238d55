package io.delayq.bulk;

import io.delayq.InvalidInputException;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;
import io.lettuce.core.KeyValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes bulk jobs in the queue's slot ({@link BulkKeys}): the job's own record and the queue's list of jobs.
 * Every write is one bulk_job.lua call that also sets the record's retention: a running job is kept until it ends, a
 * done one for {@link #DONE_KEPT} and a stopped one (which may still be resumed) for {@link #STOPPED_KEPT}, after which
 * Redis drops it; the list forgets the ids of jobs that are gone as it meets them.
 */
final class BulkJobStore {
    static final Duration DONE_KEPT = Duration.ofDays(7);
    static final Duration STOPPED_KEPT = Duration.ofDays(30);
    /** Oldest ids of the list looked at for jobs that expired, per listing: bounded work, and the list stays short. */
    static final int PRUNED_PER_LIST = 16;

    private static final String[] FIELDS = {"state", "prefix", "from", "to", "group", "priority", "action", "ms", "reason",
            "status", "total", "done", "skipped", "epoch", "shards", "created", "by", "updated", "note"};

    private final RedisClusterAsyncCommands<String, String> redis;
    private final ScriptRunner scripts;
    private final String queue;
    private final Duration timeout;

    BulkJobStore(RedisClusterAsyncCommands<String, String> redis, ScriptRunner scripts, String queue, Duration timeout) {
        this.redis = redis;
        this.scripts = scripts;
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
        write("create", job.id(), job.createdAt(), retention(job.status()), withProgress(h, job.status(), job.done(), job.skipped(),
                job.updatedAt(), job.note()));
    }

    /** @return false when the job is gone (expired or deleted): nothing was written */
    boolean progress(String id, BulkJob.Status status, long done, long skipped, long at, String note) {
        return write("update", id, 0, retention(status), withProgress(new LinkedHashMap<>(), status, done, skipped, at, note));
    }

    /** A new layout epoch for a job resumed after a reshard of a queue it had not finished. */
    void relayout(String id, long epoch, int shards) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("epoch", String.valueOf(epoch));
        h.put("shards", String.valueOf(shards));
        write("update", id, 0, "keep", h);
    }

    /** How long a job's record is kept after a write that leaves it in {@code status}: until it ends while it runs. */
    static String retention(BulkJob.Status status) {
        return switch (status) {
            case RUNNING -> "running";
            case STOPPED -> String.valueOf(STOPPED_KEPT.toMillis());
            case DONE -> String.valueOf(DONE_KEPT.toMillis());
        };
    }

    private static Map<String, String> withProgress(Map<String, String> h, BulkJob.Status status, long done, long skipped, long at, String note) {
        h.put("status", status.label());
        h.put("done", String.valueOf(done));
        h.put("skipped", String.valueOf(skipped));
        h.put("updated", String.valueOf(at));
        h.put("note", note == null ? "" : note);
        return h;
    }

    private boolean write(String mode, String id, long createdAt, String retention, Map<String, String> fields) {
        List<String> args = new ArrayList<>(List.of(mode, retention, id, String.valueOf(createdAt)));
        fields.forEach((k, v) -> {
            args.add(k);
            args.add(v);
        });
        Long written = Replies.await(scripts.<Long>run(LuaScript.BULK_JOB, List.of(BulkKeys.job(queue, id), BulkKeys.jobs(queue)), args), timeout);
        return written != null && written == 1L;
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

    /**
     * The newest jobs first, at most {@code limit}; jobs that expired (or were deleted by hand) are left out, and their
     * ids taken off the list, together with those among the list's {@link #PRUNED_PER_LIST} oldest: the oldest jobs
     * are the first to expire, so the list stays about as long as the jobs Redis still keeps.
     */
    List<BulkJob> list(int limit) {
        // ZCARD and ZRANGE, not ZREVRANGE: the console's documented ACL user has these (docs/security.md)
        String index = BulkKeys.jobs(queue);
        long count = Replies.await(redis.zcard(index), timeout);
        List<String> ids = new ArrayList<>(Replies.await(redis.zrange(index, Math.max(0, count - limit), -1), timeout));
        java.util.Collections.reverse(ids);
        List<BulkJob> jobs = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (String id : ids) {
            try {
                jobs.add(read(id));
            } catch (InvalidInputException e) {
                gone.add(id);
            }
        }
        if (count > limit) {
            for (String id : Replies.await(redis.zrange(index, 0, Math.min(PRUNED_PER_LIST, count - limit) - 1), timeout)) {
                if (Replies.await(redis.exists(BulkKeys.job(queue, id)), timeout) == 0) {
                    gone.add(id);
                }
            }
        }
        if (!gone.isEmpty()) {
            // safe against a job being created meanwhile: bulk_job.lua writes a new job's record and its id in one call
            Replies.await(redis.zrem(index, gone.toArray(String[]::new)), timeout);
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
