package io.delayq.bucket;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.GroupClaim;
import io.delayq.completion.Finished;
import io.delayq.completion.ResultRetention;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.QueueScope;
import io.delayq.redis.Replies;
import io.delayq.script.ScriptRunner;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Protocol 3's hot path on one queue, in its typed form: the argument and reply layouts of the {@code p3/} scripts.
 * Tasks wait in buckets of one due window, and a claim takes whole buckets (docs/protocol3.md). Only what these
 * scripts do is accepted: a task asking for what protocol 3 does not do yet is refused, naming the field.
 */
public final class BucketQueue {
    private final QueueScope scope;
    private final ScriptRunner scripts;

    public BucketQueue(QueueScope scope) {
        this.scope = scope;
        this.scripts = scope.scripts();
    }

    public QueueScope scope() {
        return scope;
    }

    private List<String> keys(int shard) {
        return List.of(BucketLayout.prefix(scope.queue(), shard));
    }

    /** Enqueues tasks of one shard, rejecting ids it holds (waiting, in flight or dead). */
    public CompletionStage<List<EnqueueResult>> enqueue(int shard, List<TaskSpec> tasks, long enqueuedAt) {
        return enqueue(shard, tasks, DuplicatePolicy.REJECT, enqueuedAt, 0, false, scripts)
                .thenApply(placed -> placed.stream().map(QueueProtocol.Placed::result).toList());
    }

    /**
     * Enqueues tasks of one shard under {@code policy} on the given connection (the replica-ack path waits on the
     * connection that wrote), answered as the client routes. REJECT takes enqueue.lua's short path, the other
     * policies enqueue_policy.lua. Under the caller's layout {@code epoch} (a "LAYOUT ..." error when the shard's
     * stamp holds another); {@code presentOnly}: act only on ids the shard holds (the old shard during a migration).
     */
    public CompletionStage<List<QueueProtocol.Placed>> enqueue(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt,
                                                               long epoch, boolean presentOnly, ScriptRunner scripts) {
        boolean reject = policy == DuplicatePolicy.REJECT;
        List<String> args = new ArrayList<>(2 + tasks.size() * 6);
        if (!reject) {
            args.add(policy.wire());
        }
        args.add(String.valueOf(tasks.size()));
        for (TaskSpec t : tasks) {
            args.add(t.id());
            args.add(String.valueOf(BucketLayout.indexBucket(t.id())));
            args.add(t.schedule().timing().wire());
            args.add(String.valueOf(t.schedule().millis()));
            args.add(t.record(enqueuedAt).encode());
            args.add(String.valueOf(t.priority()));
        }
        args.add(String.valueOf(epoch));
        args.add(presentOnly ? "present" : "");
        return scripts.<List<Object>>run(reject ? BucketScript.ENQUEUE : BucketScript.ENQUEUE_POLICY, keys(shard), args).thenApply(reply -> {
            List<QueueProtocol.Placed> out = new ArrayList<>(tasks.size());
            for (int i = 0; i < tasks.size(); i++) {
                out.add(new QueueProtocol.Placed(tasks.get(i).id(), (String) reply.get(1 + 2 * i), Replies.asLong(reply.get(2 + 2 * i))));
            }
            return out;
        });
    }

    /** What a claim's answer holds after its buckets where groups wait (p3/claim.lua). */
    private static final String GROUP_TRAILER = "#";

    /**
     * Takes whole due buckets (and those whose window starts within {@code ahead}), at most {@code batch} tasks.
     * Sent again with the same {@code requestId} (its answer was lost), it answers what the first call took and still
     * holds instead of claiming more. A task of a bucket may be due up to a window after the claim: the caller holds
     * it until then.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, Duration ahead, String requestId) {
        return claim(shard, batch, lease, ahead, requestId, 0, 0);
    }

    /**
     * As above, under the shard's rate limit: at most {@code perSecond} tasks a second with bursts of {@code burst}
     * (0: none), protocol 2's token bucket; a rate-limited claim does not look ahead.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, Duration ahead, String requestId, double perSecond,
                                             int burst) {
        return claim(shard, batch, lease, ahead, requestId, perSecond, burst, GroupClaim.NONE);
    }

    /**
     * As above, with the groups' round ({@link GroupClaim}: per-group rate limit, weights, caps and the permits held for
     * them); while grouped tasks wait the claim does not look ahead, and {@link ClaimBatch#wanted()} names the capped
     * groups that had tasks due without a permit.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, Duration ahead, String requestId, double perSecond,
                                             int burst, GroupClaim groups) {
        return claim(shard, batch, lease, ahead, NO_ROOM, requestId, perSecond, burst, groups);
    }

    /** {@link #claim}'s room ahead when none is named: the windows starting within {@code ahead} count toward the batch. */
    public static final int NO_ROOM = -1;

    /**
     * As above, the batch from the windows that have begun and up to {@code aheadRoom} tasks beyond it (0: none) from
     * those starting after now within {@code ahead} (protocol 2's {@link io.delayq.claim.ClaimAhead}): the worker holds
     * them outside its handler slots.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, Duration ahead, int aheadRoom, String requestId,
                                             double perSecond, int burst, GroupClaim groups) {
        List<String> args = new ArrayList<>(List.of(String.valueOf(batch), String.valueOf(lease.toMillis()), "0", String.valueOf(ahead.toMillis()),
                requestId, String.valueOf(perSecond), String.valueOf(burst)));
        if (groups.any() || aheadRoom != NO_ROOM) {
            args.addAll(groups.wire());
        }
        if (aheadRoom != NO_ROOM) {
            args.add(String.valueOf(aheadRoom));
        }
        return scripts.<List<Object>>run(BucketScript.CLAIM, keys(shard), args).thenApply(reply -> {
            long expiry = Replies.asLong(reply.get(0));
            List<ClaimedTask> tasks = new ArrayList<>();
            // a rate-limited claim is held to the due tasks (p3/claim.lua): it did not look ahead although asked to
            boolean lookedAhead = !(perSecond > 0 && ahead.toMillis() > 0);
            Map<String, Integer> wanted = Map.of();
            for (int i = 3; i + 1 < reply.size(); i += 2) {
                String flight = (String) reply.get(i);
                if (flight.equals(GROUP_TRAILER)) {
                    // where groups wait: whether it looked ahead, then the capped groups that wanted permits
                    @SuppressWarnings("unchecked")
                    List<Object> trailer = (List<Object>) reply.get(i + 1);
                    lookedAhead = Replies.asLong(trailer.get(0)) == 1 || ahead.toMillis() == 0;
                    wanted = new LinkedHashMap<>();
                    for (int w = 1; w + 1 < trailer.size(); w += 2) {
                        wanted.put((String) trailer.get(w), (int) Replies.asLong(trailer.get(w + 1)));
                    }
                    break;
                }
                // a group's bucket name may hold '@': the claim's tag is after the last one
                String name = flight.substring(0, flight.lastIndexOf('@'));
                int attempt = BucketLayout.attemptOf(name);
                @SuppressWarnings("unchecked")
                List<Object> flat = (List<Object>) reply.get(i + 1);
                for (int j = 0; j + 1 < flat.size(); j += 2) {
                    String value = (String) flat.get(j + 1);
                    String record = BucketLayout.recordOf(name, value);
                    // a bare task (p3/include/legacy.lua) has no record: null, as protocol 2 hands it out
                    tasks.add(new ClaimedTask(shard, (String) flat.get(j), BucketLayout.dueOf(name, value), attempt, expiry,
                            record.isEmpty() ? null : record, flight));
                }
            }
            return new ClaimBatch(shard, Replies.asLong(reply.get(1)), Replies.asLong(reply.get(2)), tasks, List.of(), lookedAhead, wanted);
        });
    }

    /**
     * Acks tasks of one shard, one HDEL per in-flight bucket; the answer says, per task, whether it was still this
     * claim's (a bucket reclaimed after its lease expired acks nothing).
     */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks) {
        return ack(shard, tasks, Set.of(), ResultRetention.OFF, "", List.of());
    }

    /**
     * As above, deleting the progress reported for the ids in {@code reportedProgress}, and, while {@code retention} is
     * on, keeping a completion record of each acked task that {@code finished} (index for index with {@code tasks})
     * says ran, as protocol 2's ack does.
     */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks, Set<String> reportedProgress, ResultRetention retention,
                                              String workerId, List<Finished> finished) {
        Map<String, List<Integer>> byFlight = new LinkedHashMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            ClaimedTask t = tasks.get(i);
            if (t.shard() != shard) {
                throw new IllegalArgumentException("task " + t.id() + " was claimed on shard " + t.shard() + ", not " + shard);
            }
            // a task no protocol-3 claim handed out names no in-flight bucket: it is not in flight, so not acked
            if (t.flight() != null) {
                byFlight.computeIfAbsent(t.flight(), f -> new ArrayList<>()).add(i);
            }
        }
        if (byFlight.isEmpty()) {
            return CompletableFuture.completedFuture(java.util.Collections.nCopies(tasks.size(), false));
        }
        List<String> args = new ArrayList<>(1 + byFlight.size() * 2 + tasks.size() * 2);
        args.add(String.valueOf(byFlight.size()));
        byFlight.forEach((flight, at) -> {
            args.add(flight);
            args.add(String.valueOf(at.size()));
            for (int i : at) {
                String id = tasks.get(i).id();
                args.add(id);
                args.add(String.valueOf(BucketLayout.indexBucket(id)));
            }
        });
        if (!reportedProgress.isEmpty() || retention.on()) {
            List<String> reported = tasks.stream().map(ClaimedTask::id).filter(reportedProgress::contains).toList();
            args.add(String.valueOf(reported.size()));
            args.addAll(reported);
        }
        if (retention.on()) {
            int[] order = byFlight.values().stream().flatMap(List::stream).mapToInt(Integer::intValue).toArray();
            retention.appendAckArguments(args, workerId, order.length, k -> tasks.get(order[k]).attempt(),
                    k -> QueueProtocol.finishedOf(finished, order[k]));
        }
        return scripts.<List<Object>>run(BucketScript.ACK, keys(shard), args).thenApply(reply -> {
            Boolean[] acked = new Boolean[tasks.size()];
            Arrays.fill(acked, false);
            int b = 0;
            for (List<Integer> at : byFlight.values()) {
                Object answer = reply.get(b++);
                for (int k = 0; k < at.size(); k++) {
                    acked[at.get(k)] = answer instanceof List<?> flags ? Replies.asLong(flags.get(k)) == 1 : Replies.asLong(answer) > 0;
                }
            }
            return Arrays.asList(acked);
        });
    }

    /**
     * Puts a failed task back to wait {@code backoff} as its next attempt, or dead-letters it (beyond {@code maxAttempts},
     * or {@code permanent}) within the dead letters' bounds.
     */
    public CompletionStage<RetryResult> retry(ClaimedTask task, Duration backoff, String error, int maxAttempts, boolean permanent,
                                              DeadLetterPolicy dead) {
        return retry(task, backoff, error, maxAttempts, permanent, dead, false);
    }

    /** As above; {@code reportedProgress}: the handler reported progress, which goes with the retry. */
    public CompletionStage<RetryResult> retry(ClaimedTask task, Duration backoff, String error, int maxAttempts, boolean permanent,
                                              DeadLetterPolicy dead, boolean reportedProgress) {
        List<String> args = List.of(task.flight(), task.id(), String.valueOf(BucketLayout.indexBucket(task.id())),
                String.valueOf(backoff.toMillis()), error == null ? "" : error, String.valueOf(maxAttempts), permanent ? "1" : "0",
                String.valueOf(dead.maxCount()), String.valueOf(dead.maxAge().toMillis()), reportedProgress ? "1" : "0");
        return scripts.<List<Object>>run(BucketScript.RETRY, keys(task.shard()), args).thenApply(reply -> new RetryResult(
                RetryResult.Status.valueOf(((String) reply.get(0)).toUpperCase(Locale.ROOT)), Replies.asLong(reply.get(1))));
    }

    /**
     * Keeps a running handler's progress with its in-flight task while the task is still in the bucket its claim named:
     * 1 = written, 0 = refused (settled, or its bucket reclaimed).
     */
    public CompletionStage<Long> progress(ClaimedTask task, double percent, String note) {
        if (task.flight() == null) {
            return CompletableFuture.completedFuture(0L); // handed out by no protocol-3 claim: not in flight
        }
        return scripts.run(BucketScript.PROGRESS, keys(task.shard()), List.of(task.flight(), task.id(),
                io.delayq.task.TaskProgress.percentText(percent), note == null ? "" : note));
    }

    /** Moves the leases of tasks' in-flight buckets on by {@code lease}; per task the new expiry, or 0 where the bucket is no longer held. */
    public CompletionStage<List<Long>> extend(int shard, List<ClaimedTask> tasks, Duration lease) {
        Map<String, CompletableFuture<Long>> byFlight = new LinkedHashMap<>();
        for (ClaimedTask t : tasks) {
            byFlight.computeIfAbsent(t.flight(), f -> scripts.<Long>run(BucketScript.EXTEND, keys(shard),
                    List.of(f, String.valueOf(lease.toMillis()))).toCompletableFuture());
        }
        return CompletableFuture.allOf(byFlight.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<Long> out = new ArrayList<>(tasks.size());
            for (ClaimedTask t : tasks) {
                long expiry = byFlight.get(t.flight()).join();
                out.add(expiry < 0 ? 0L : expiry);
            }
            return out;
        });
    }

    /**
     * Gives back buckets whose lease expired (at most {@code most}) as their next attempt or to the dead letters,
     * and splits coarse minutes nearing their time into windows.
     */
    public CompletionStage<Reclaimed> reclaim(int shard, int most, int maxAttempts, DeadLetterPolicy dead) {
        List<String> args = List.of("0", String.valueOf(most), String.valueOf(maxAttempts), String.valueOf(dead.maxCount()),
                String.valueOf(dead.maxAge().toMillis()));
        return scripts.<List<Object>>run(BucketScript.RECLAIM, keys(shard), args).thenApply(reply ->
                new Reclaimed(Replies.asLong(reply.get(0)), Replies.asLong(reply.get(1))));
    }

    public enum Cancelled { CANCELLED, INFLIGHT, ABSENT, MOVING }

    /**
     * Removes a waiting task or a dead letter by id from its shard; a task in flight is refused. Under the caller's
     * layout {@code epoch}, as the other calls by id.
     */
    public CompletionStage<Cancelled> cancel(int shard, String id, long epoch) {
        List<String> args = List.of(id, String.valueOf(BucketLayout.indexBucket(id)), String.valueOf(epoch));
        return scripts.<String>run(BucketScript.CANCEL, keys(shard), args)
                .thenApply(reply -> Cancelled.valueOf(reply.toUpperCase(Locale.ROOT)));
    }

    /** inspect.lua of protocol 3: protocol 2's first seven answer fields for one id (TaskAdmin reads them). */
    public CompletionStage<List<Object>> inspect(int shard, String id, long epoch) {
        return scripts.run(BucketScript.INSPECT, keys(shard), List.of(id, String.valueOf(BucketLayout.indexBucket(id)), String.valueOf(epoch)));
    }

    /** reschedule.lua of protocol 3: { status, due } in protocol 2's words (TaskAdmin reads them). */
    public CompletionStage<List<Object>> reschedule(int shard, String id, io.delayq.task.Schedule schedule, long epoch) {
        return scripts.run(BucketScript.RESCHEDULE, keys(shard), List.of(id, String.valueOf(BucketLayout.indexBucket(id)),
                schedule.timing().wire(), String.valueOf(schedule.millis()), String.valueOf(epoch)));
    }

    /** dead_list.lua of protocol 3: protocol 2's page answer (TaskAdmin reads it). */
    public CompletionStage<List<Object>> deadLetters(int shard, long offset, int limit) {
        return scripts.run(BucketScript.DEAD_LIST, keys(shard), List.of(String.valueOf(offset), String.valueOf(limit)));
    }

    /** Dead letters of one shard back to due now as attempt 1; answers how many were dead. */
    public CompletionStage<Long> replayDead(int shard, List<String> ids) {
        return scripts.run(BucketScript.DEAD_REPLAY, keys(shard), ids);
    }

    /** Dead letters of one shard deleted for good (their ids free again); answers how many were dead. */
    public CompletionStage<Long> purgeDead(int shard, List<String> ids) {
        return scripts.run(BucketScript.DEAD_PURGE, keys(shard), ids);
    }

    /**
     * Buckets a stats or forecast call reads at most; the rest count at the read ones' average fill. Ten thousand
     * buckets are at least ten thousand tasks, and read in a few milliseconds of Redis time.
     */
    public static final int COUNTED_BUCKETS = 10_000;

    /** A shard's backlog, in protocol 2's stats.lua answer. */
    public CompletionStage<List<Object>> stats(int shard) {
        return stats(shard, COUNTED_BUCKETS);
    }

    /** As {@link #stats(int)}, reading at most {@code mostBuckets} buckets. */
    public CompletionStage<List<Object>> stats(int shard, int mostBuckets) {
        return scripts.run(BucketScript.STATS, keys(shard), List.of(String.valueOf(mostBuckets)));
    }

    /** A shard's due forecast over windows of the given lengths (ms, ascending), in protocol 2's forecast.lua answer. */
    public CompletionStage<List<Object>> forecast(int shard, List<String> windowMillis) {
        return forecast(shard, windowMillis, COUNTED_BUCKETS);
    }

    /** As {@link #forecast(int, List)}, reading at most {@code mostBuckets} buckets. */
    public CompletionStage<List<Object>> forecast(int shard, List<String> windowMillis, int mostBuckets) {
        List<String> args = new ArrayList<>(windowMillis.size() + 1);
        args.add(String.valueOf(mostBuckets));
        args.addAll(windowMillis);
        return scripts.run(BucketScript.FORECAST, keys(shard), args);
    }

}
