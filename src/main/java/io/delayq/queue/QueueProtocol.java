package io.delayq.queue;

import io.delayq.bucket.BucketQueue;
import io.delayq.claim.ClaimAhead;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.GroupCaps;
import io.delayq.claim.GroupClaim;
import io.delayq.claim.GroupWeights;
import io.delayq.claim.RunningPermits;
import io.delayq.completion.Finished;
import io.delayq.completion.ResultRetention;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RefusedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.layout.Layout;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.task.TaskProgress;
import io.delayq.script.ScriptRunner;
import io.delayq.shard.RecordBuckets;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.delayq.redis.Replies.asLong;

/**
 * The hot path of one queue in its typed form: enqueue, claim, ack, retry, extend and reclaim, with the
 * argument and reply layouts of their scripts. The producer client and the worker both speak through it.
 * The other concerns have script classes of their own on the same {@link QueueScope}: {@link TaskAdmin}
 * (by id, dead letters), {@link io.delayq.backlog.StatsReader}, {@link io.delayq.browse.BrowseScript},
 * {@link io.delayq.pause.PauseScripts} and {@link io.delayq.reshard.ReshardScripts}.
 */
public final class QueueProtocol {
    /**
     * 2: records in bucketed hashes ({@code tasks:<b>}) and the compact record form. Version 1 was
     * never released with data to keep, so there is no migration: a v1 worker or client meeting a
     * v2 queue (or the reverse) refuses with {@link ProtocolVersionMismatchException}.
     */
    public static final int PROTOCOL_VERSION = 2;
    /** Protocol 3 (docs/protocol3.md): tasks in buckets of one due window; what a new queue records by default. */
    public static final int BUCKETED = 3;
    private static final Set<Integer> SPOKEN = Set.of(PROTOCOL_VERSION, BUCKETED);
    /** Arguments per script call stay well under Lua's unpack() limit. */
    public static final int MAX_PER_CALL = 500;

    private final QueueScope scope;
    private final QueueLayout layout;
    private final ScriptRunner scripts;

    public QueueProtocol(RedisEndpoint redis, String queue, int shards) {
        this(new QueueScope(redis, queue), shards);
    }

    public QueueProtocol(QueueScope scope, int shards) {
        this.scope = scope;
        this.layout = new QueueLayout(scope, Sharding.requireShardCount(shards));
        this.scripts = scope.scripts();
    }

    /** The queue's connection, scripts and keys, shared with the script classes of the other concerns (admin, stats, browse, pause, resharding). */
    public QueueScope scope() {
        return scope;
    }

    public String queue() {
        return scope.queue();
    }

    /** The current layout's shard count (during a migration: the new one; shards 0..count-1 all hold tasks). */
    public int shards() {
        return layout.current().shards();
    }

    public Layout layout() {
        return layout.current();
    }

    public ShardKeys keys(int shard) {
        return scope.keys(shard);
    }

    public int shardOf(String id) {
        return layout.current().shardOf(id);
    }

    /**
     * Records the shard count (and {@link #protocolForNewQueues()}) on first use and reads the layout; see
     * {@link QueueLayout#verify}. A queue recorded as protocol 3 is then spoken to through {@link BucketQueue}.
     */
    public CompletionStage<Void> verifyMeta() {
        return layout.verify(protocolForNewQueues(), SPOKEN);
    }

    /**
     * The protocol a queue is recorded with on its first use: 3 (docs/protocol3.md) unless {@code DELAYQ_PROTOCOL} (or the
     * system property {@code delayq.protocol}) asks for 2, for a fleet where a process that speaks only protocol 2 still
     * writes to the queue. It decides nothing for a queue that exists: a protocol-2 queue stays on 2 until upgraded in
     * place ({@code delayq upgrade}).
     */
    public static int protocolForNewQueues() {
        String asked = System.getProperty("delayq.protocol", System.getenv("DELAYQ_PROTOCOL"));
        if (asked == null || asked.isBlank()) {
            return BUCKETED;
        }
        return switch (asked.trim()) {
            case "2" -> PROTOCOL_VERSION;
            case "3" -> BUCKETED;
            default -> throw new io.delayq.InvalidInputException("DELAYQ_PROTOCOL", "must be 2 or 3, got '" + asked + "'");
        };
    }

    /** The queue's protocol-3 calls, or null on a protocol-2 queue (or before {@link #verifyMeta()}). */
    public BucketQueue buckets() {
        return scope.buckets();
    }

    /**
     * Re-reads the protocol the queue's meta records (one HGET): a queue upgraded in place (docs/protocol3.md) is spoken
     * to as protocol 3 from then on. Answers the protocol now spoken; a version this process does not speak changes
     * nothing (the next verify refuses it).
     */
    public CompletionStage<Integer> refreshProtocol() {
        return scope.commands().hget(scope.meta(), "protocol").thenApply(recorded -> {
            if (recorded != null) {
                try {
                    int p = Integer.parseInt(recorded.trim());
                    if (SPOKEN.contains(p)) {
                        scope.recordProtocol(p);
                    }
                } catch (NumberFormatException e) {
                    // a damaged field is RecordedLayout's to report, on the next layout read
                }
            }
            return scope.protocol();
        });
    }

    /** Re-reads the layout from the meta hash (after a LAYOUT answer, or periodically). */
    public CompletionStage<Layout> refreshLayout() {
        return layout.refresh();
    }

    public ScriptRunner scripts() {
        return scripts;
    }

    /** One enqueue result as the script answered it: also "absent" and "moving", which the client routes on. */
    public record Placed(String id, String status, long dueAt) {
        public EnqueueResult result() {
            return EnqueueResult.fromWire(id, status, dueAt);
        }
    }

    /**
     * The enqueue script on one shard under the caller's layout epoch; {@code presentOnly}: only act on ids
     * the shard holds (the old shard during a migration). Fails with a "LAYOUT ..." error when the shard's
     * stamp holds another epoch.
     */
    public CompletionStage<List<Placed>> enqueueAt(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt,
                                                   long epoch, boolean presentOnly, ScriptRunner scripts) {
        BucketQueue b = scope.buckets();
        if (b != null) {
            return b.enqueue(shard, tasks, policy, enqueuedAt, epoch, presentOnly, scripts);
        }
        List<String> args = new ArrayList<>(4 + tasks.size() * 5);
        args.add(policy.wire());
        args.add(String.valueOf(tasks.size()));
        for (TaskSpec t : tasks) {
            Schedule s = t.schedule();
            args.add(t.id());
            args.add(s.timing().wire());
            args.add(String.valueOf(s.millis()));
            args.add(t.record(enqueuedAt).encode());
            args.add(String.valueOf(t.priority()));
        }
        args.add(String.valueOf(epoch));
        args.add(presentOnly ? "present" : "");
        List<String> enqueueKeys = keys(shard).scriptKeys();
        if (policy == DuplicatePolicy.ONCE || policy == DuplicatePolicy.FUTURE_ONCE) {
            enqueueKeys = new ArrayList<>(enqueueKeys);
            enqueueKeys.add(keys(shard).once());
        }
        return scripts.<List<Object>>run(LuaScript.ENQUEUE, enqueueKeys, args).thenApply(reply -> {
            List<Placed> results = new ArrayList<>(tasks.size());
            for (int i = 0; i < tasks.size(); i++) {
                results.add(new Placed(tasks.get(i).id(), (String) reply.get(1 + 2 * i), asLong(reply.get(2 + 2 * i))));
            }
            return results;
        });
    }

    /** Tasks of one shard, at most {@link #MAX_PER_CALL}; records are encoded with enqueuedAt. */
    public CompletionStage<List<EnqueueResult>> enqueue(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt) {
        return enqueue(shard, tasks, policy, enqueuedAt, scripts);
    }

    /** As above, on the given connection (the replica-ack path sends WAIT on the connection that wrote). */
    public CompletionStage<List<EnqueueResult>> enqueue(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt,
                                                        ScriptRunner scripts) {
        return enqueueAt(shard, tasks, policy, enqueuedAt, layout.current().epoch(), false, scripts)
                .thenApply(placed -> placed.stream().map(Placed::result).toList());
    }

    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, RateLimit rate) {
        return claim(shard, batch, lease, rate, UUID.randomUUID().toString());
    }

    /**
     * A claim under a caller-chosen request id. Sending the same id again (after a time-out or a lost
     * connection) answers the tasks the first attempt claimed, if it ran, instead of claiming more
     * and leaving those stranded in flight until their lease expires.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, RateLimit rate, String requestId) {
        return claim(shard, batch, lease, rate, requestId, ClaimAhead.NONE);
    }

    /**
     * As above, and when the due tasks leave the batch short, tasks due within {@code ahead}'s window too, at most its
     * {@code maxTasks} beyond the batch (not on a rate-limited
     * shard nor where groups wait; {@link ClaimBatch#lookedAhead()} says whether it did). The caller must not run such a
     * task before the server clock reads its due time.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, RateLimit rate, String requestId, ClaimAhead ahead) {
        return claim(shard, batch, lease, rate, requestId, ahead, GroupWeights.NONE);
    }

    /** As above, with the groups' weights in the round robin ({@link GroupWeights}). */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, RateLimit rate, String requestId, ClaimAhead ahead,
                                             GroupWeights weights) {
        return claim(shard, batch, lease, rate, requestId, ahead, weights, GroupCaps.NONE, Map.of());
    }

    /**
     * As above, where {@code caps} name groups capped at N running across the fleet: their tasks come only against the
     * {@code permits} the caller holds (group -> count, taken with {@link RunningPermits}), at most one task per permit,
     * before any other group's turn; {@link ClaimBatch#wanted()} names the capped groups that had tasks due without one.
     */
    public CompletionStage<ClaimBatch> claim(int shard, int batch, Duration lease, RateLimit rate, String requestId, ClaimAhead ahead,
                                             GroupWeights weights, GroupCaps caps, Map<String, Integer> permits) {
        if (batch < 1 || batch > MAX_PER_CALL * 2) {
            throw new io.delayq.InvalidInputException("batch", "must be between 1 and " + MAX_PER_CALL * 2 + ", got " + batch);
        }
        if (lease == null || lease.toMillis() < 1) {
            throw new io.delayq.InvalidInputException("lease", "must be at least 1 ms, got " + lease);
        }
        if (ahead.maxTasks() > MAX_PER_CALL * 2) {
            throw new io.delayq.InvalidInputException("claimAheadMax", "must be at most " + MAX_PER_CALL * 2 + ", got " + ahead.maxTasks());
        }
        BucketQueue b = scope.buckets();
        if (b != null) {
            GroupClaim groups = new GroupClaim(rate.groupsLimited() ? rate.groupPerShard(shards()) : 0,
                    rate.groupsLimited() ? rate.groupBurstPerShard(shards()) : 0, weights, caps, permits);
            return b.claim(shard, batch, lease, ahead.enabled() ? ahead.window() : Duration.ZERO, ahead.enabled() ? ahead.maxTasks() : BucketQueue.NO_ROOM, requestId,
                    rate.enabled() ? rate.perShard(shards()) : 0, rate.enabled() ? rate.burstPerShard(shards()) : 0, groups);
        }
        ShardKeys k = keys(shard);
        List<String> claimKeys = new ArrayList<>(k.scriptKeys());
        claimKeys.add(k.claimRequest(requestId));
        claimKeys.add(k.paused());
        List<String> args = List.of(String.valueOf(batch), String.valueOf(lease.toMillis()),
                String.valueOf(rate.enabled() ? rate.perShard(shards()) : 0),
                String.valueOf(rate.enabled() ? rate.burstPerShard(shards()) : 0),
                String.valueOf(rate.groupsLimited() ? rate.groupPerShard(shards()) : 0),
                String.valueOf(rate.groupsLimited() ? rate.groupBurstPerShard(shards()) : 0));
        if (ahead.enabled() || weights.any() || caps.any()) {
            args = new ArrayList<>(args);
            args.add(String.valueOf(ahead.enabled() ? ahead.window().toMillis() : 0));
            args.add(String.valueOf(ahead.enabled() ? ahead.maxTasks() : 0));
            if (weights.any() || caps.any()) {
                args.add(weights.wire());
            }
            if (caps.any()) {
                args.add(caps.wire());
                args.add(RunningPermits.wire(permits));
            }
        }
        return scripts.<List<Object>>run(LuaScript.CLAIM, claimKeys, args).thenApply(reply -> {
            long now = asLong(reply.get(0));
            long next = asLong(reply.get(1));
            long token = asLong(reply.get(2));
            int n = (int) asLong(reply.get(3));
            List<ClaimedTask> tasks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int at = 4 + i * 4;
                tasks.add(new ClaimedTask(shard, (String) reply.get(at), asLong(reply.get(at + 1)),
                        (int) asLong(reply.get(at + 2)), token, (String) reply.get(at + 3)));
            }
            // after the tasks: those the script dead-lettered as malformed (absent from a replayed answer)
            int at = 4 + n * 4;
            int r = reply.size() > at ? (int) asLong(reply.get(at)) : 0;
            List<RefusedTask> refused = new ArrayList<>(r);
            for (int i = 0; i < r; i++) {
                int e = at + 1 + 3 * i;
                refused.add(new RefusedTask(shard, (String) reply.get(e), (int) asLong(reply.get(e + 1)), (String) reply.get(e + 2)));
            }
            // then, when asked to look ahead, whether it did (absent from a replayed or a paused answer)
            int flag = at + 1 + 3 * r;
            boolean lookedAhead = !ahead.enabled() || reply.size() <= flag || asLong(reply.get(flag)) == 1;
            // then, with capped groups, those that had tasks due and no permit (absent from a replayed or a paused answer)
            Map<String, Integer> wanted = Map.of();
            int w = flag + 1;
            if (caps.any() && reply.size() > w) {
                wanted = new LinkedHashMap<>();
                for (int i = 0; i < asLong(reply.get(w)); i++) {
                    wanted.put((String) reply.get(w + 1 + 2 * i), (int) asLong(reply.get(w + 2 + 2 * i)));
                }
            }
            return new ClaimBatch(shard, now, next, tasks, refused, lookedAhead, wanted);
        });
    }

    /** Every record bucket's number as the ack's argument text (formatted once, not per acked task). */
    private static final String[] BUCKET_TEXT = IntStream.range(0, RecordBuckets.BUCKETS)
            .mapToObj(String::valueOf).toArray(String[]::new);

    /** Acks tasks of one shard (at most {@link #MAX_PER_CALL}); the answer says, per task, whether the lease was still ours. */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks) {
        return ack(shard, tasks, Set.of());
    }

    /**
     * Acks tasks of one shard, deleting the progress their handlers reported for the ids in {@code reportedProgress}
     * (tasks that reported none cost the script nothing).
     */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks, Set<String> reportedProgress) {
        return ack(shard, tasks, reportedProgress, ResultRetention.OFF, "", List.of());
    }

    /**
     * Acks tasks of one shard and, while {@code retention} is on, keeps a completion record of each acked one that
     * {@code finished} (index for index with {@code tasks}) says ran: finished on the Redis clock, its attempt, its
     * handler's time and result, {@code workerId} ({@link io.delayq.completion.CompletionRecord}).
     */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks, Set<String> reportedProgress,
                                             ResultRetention retention, String workerId, List<Finished> finished) {
        BucketQueue b = scope.buckets();
        if (b != null) {
            return byOrigin(tasks,
                    (own, at) -> b.ack(shard, own, reportedProgress, retention, workerId, pick(finished, at)),
                    (legacy, at) -> ackProtocol2(shard, legacy, reportedProgress, retention, workerId, pick(finished, at)));
        }
        return ackProtocol2(shard, tasks, reportedProgress, retention, workerId, finished);
    }

    /**
     * Runs a call about claimed tasks on a protocol-3 queue: the tasks a protocol-3 claim handed out (in an in-flight
     * bucket) through {@code bucketed}, those protocol 2 handed out before the queue was upgraded in place through
     * {@code legacy} (protocol 2's scripts, on its keys: docs/protocol3.md, "Upgrade in place"); each is given its
     * tasks and their indexes in {@code tasks}, and the answers come back in the order of {@code tasks}.
     */
    private static <T> CompletionStage<List<T>> byOrigin(List<ClaimedTask> tasks,
                                                        BiFunction<List<ClaimedTask>, int[], CompletionStage<List<T>>> bucketed,
                                                        BiFunction<List<ClaimedTask>, int[], CompletionStage<List<T>>> legacy) {
        int[] own = IntStream.range(0, tasks.size()).filter(i -> tasks.get(i).flight() != null).toArray();
        if (own.length == tasks.size()) {
            return bucketed.apply(tasks, own);
        }
        int[] old = IntStream.range(0, tasks.size()).filter(i -> tasks.get(i).flight() == null).toArray();
        if (old.length == tasks.size()) {
            return legacy.apply(tasks, old);
        }
        CompletableFuture<List<T>> a = bucketed.apply(Arrays.stream(own).mapToObj(tasks::get).toList(), own).toCompletableFuture();
        CompletableFuture<List<T>> c = legacy.apply(Arrays.stream(old).mapToObj(tasks::get).toList(), old).toCompletableFuture();
        return a.thenCombine(c, (x, y) -> {
            List<T> out = new ArrayList<>(Collections.nCopies(tasks.size(), null));
            for (int k = 0; k < own.length; k++) {
                out.set(own[k], x.get(k));
            }
            for (int k = 0; k < old.length; k++) {
                out.set(old[k], y.get(k));
            }
            return out;
        });
    }

    private static List<Finished> pick(List<Finished> finished, int[] at) {
        return Arrays.stream(at).mapToObj(i -> finishedOf(finished, i)).toList();
    }

    private CompletionStage<List<Boolean>> ackProtocol2(int shard, List<ClaimedTask> tasks, Set<String> reportedProgress,
                                                       ResultRetention retention, String workerId, List<Finished> finished) {
        int n = tasks.size();
        // each task's record bucket goes with it, the tasks ordered by bucket: the script then hashes no id and
        // deletes the records of one bucket with one HDEL (ack.lua); the answer comes back in this order
        long[] byBucket = new long[n];
        for (int i = 0; i < n; i++) {
            byBucket[i] = (long) RecordBuckets.bucketOf(tasks.get(i).id()) << 32 | i;
        }
        Arrays.sort(byBucket);
        List<String> args = new ArrayList<>(2 + n * 3);
        args.add(String.valueOf(n));
        List<String> counted = new ArrayList<>();
        // the tasks of one claim share their token, and an ack holds the tasks of a claim or two (sorted by bucket,
        // so interleaved): the two tokens seen last are formatted once, not per task
        long tokenA = 0;
        long tokenB = 0;
        String textA = null;
        String textB = null;
        for (int k = 0; k < n; k++) {
            ClaimedTask t = tasks.get((int) byBucket[k]);
            args.add(t.id());
            long token = t.token();
            String text;
            if (textA != null && token == tokenA) {
                text = textA;
            } else if (textB != null && token == tokenB) {
                text = textB;
            } else {
                text = String.valueOf(token);
                tokenB = tokenA;
                textB = textA;
                tokenA = token;
                textA = text;
            }
            args.add(text);
            args.add(BUCKET_TEXT[(int) (byBucket[k] >>> 32)]);
            // a first attempt has no attempt count or last error to delete: ack.lua is told which tasks do
            if (t.attempt() > 1) {
                counted.add(String.valueOf(k + 1));
            }
        }
        args.add(String.valueOf(counted.size()));
        args.addAll(counted);
        if (!reportedProgress.isEmpty()) {
            List<String> reported = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                if (reportedProgress.contains(tasks.get((int) byBucket[k]).id())) {
                    reported.add(String.valueOf(k + 1));
                }
            }
            args.add(String.valueOf(reported.size()));
            args.addAll(reported);
        } else if (retention.on()) {
            args.add("0");
        }
        if (retention.on()) {
            retention.appendAckArguments(args, workerId, n, k -> tasks.get((int) byBucket[k]).attempt(),
                    k -> finishedOf(finished, (int) byBucket[k]));
        }
        return scripts.<List<Object>>run(LuaScript.ACK, keys(shard).scriptKeys(), args).thenApply(reply -> {
            Boolean[] acked = new Boolean[n];
            for (int k = 0; k < n; k++) {
                acked[(int) byBucket[k]] = asLong(reply.get(k)) == 1;
            }
            return Arrays.asList(acked);
        });
    }

    /** How task {@code i} of an ack ended; tasks beyond the list keep no completion record. */
    public static Finished finishedOf(List<Finished> finished, int i) {
        return i < finished.size() ? finished.get(i) : Finished.NO_RECORD;
    }

    public CompletionStage<RetryResult> retry(ClaimedTask task, Duration backoff, String error, int maxAttempts,
                                              boolean permanent, DeadLetterPolicy dead) {
        return retry(task, backoff, error, maxAttempts, permanent, dead, false);
    }

    /** @param reportedProgress the handler reported progress: the retry deletes it */
    public CompletionStage<RetryResult> retry(ClaimedTask task, Duration backoff, String error, int maxAttempts,
                                              boolean permanent, DeadLetterPolicy dead, boolean reportedProgress) {
        BucketQueue b = scope.buckets();
        if (b != null && task.flight() != null) {
            return b.retry(task, backoff, error, maxAttempts, permanent, dead, reportedProgress);
        }
        // (a task protocol 2 handed out before its queue was upgraded in place goes back to protocol 2's keys, to be
        // adopted from there: p3/include/legacy.lua)
        List<String> args = new ArrayList<>(List.of(task.id(), String.valueOf(task.token()), String.valueOf(backoff.toMillis()),
                error == null ? "" : error, String.valueOf(maxAttempts), permanent ? "1" : "0",
                String.valueOf(dead.maxCount()), String.valueOf(dead.maxAge().toMillis())));
        if (reportedProgress) {
            args.add("1");
        }
        return scripts.<List<Object>>run(LuaScript.RETRY, keys(task.shard()).scriptKeys(), args).thenApply(reply ->
                new RetryResult(RetryResult.Status.valueOf(((String) reply.get(0)).toUpperCase()), asLong(reply.get(1))));
    }

    /** Extends the leases of tasks of one shard; the answer holds the new token, or 0 where the lease was lost. */
    public CompletionStage<List<Long>> extend(int shard, List<ClaimedTask> tasks, Duration lease) {
        return extend(shard, tasks, lease, UUID.randomUUID().toString());
    }

    /** An extension under a caller-chosen request id: sent again, it answers the tokens of its first run. */
    public CompletionStage<List<Long>> extend(int shard, List<ClaimedTask> tasks, Duration lease, String requestId) {
        BucketQueue b = scope.buckets();
        if (b != null) {
            // a re-sent extension changes nothing on protocol 3 (a lease only moves on), so no request id is kept
            return byOrigin(tasks, (own, at) -> b.extend(shard, own, lease), (legacy, at) -> extendProtocol2(shard, legacy, lease, requestId));
        }
        return extendProtocol2(shard, tasks, lease, requestId);
    }

    private CompletionStage<List<Long>> extendProtocol2(int shard, List<ClaimedTask> tasks, Duration lease, String requestId) {
        List<String> args = new ArrayList<>(1 + tasks.size() * 3);
        args.add(String.valueOf(tasks.size()));
        for (ClaimedTask t : tasks) {
            args.add(t.id());
            args.add(String.valueOf(t.token()));
            args.add(String.valueOf(lease.toMillis()));
        }
        List<String> extendKeys = new ArrayList<>(keys(shard).scriptKeys());
        extendKeys.add(keys(shard).extendRequest(requestId));
        return scripts.<List<Object>>run(LuaScript.EXTEND, extendKeys, args)
                .thenApply(reply -> reply.stream().map(Replies::asLong).collect(Collectors.toList()));
    }

    /**
     * Keeps a running handler's progress with its in-flight task, under the claim's current token: 1 = written,
     * 0 = refused (the lease is no longer {@code task}'s: settled, expired, or extended to a newer token meanwhile).
     */
    public CompletionStage<Long> progress(ClaimedTask task, double percent, String note) {
        if (scope.buckets() != null && task.flight() != null) {
            return scope.buckets().progress(task, percent, note);
        }
        List<String> args = List.of(task.id(), String.valueOf(task.token()), TaskProgress.percentText(percent), note == null ? "" : note);
        return scripts.run(LuaScript.PROGRESS, keys(task.shard()).scriptKeys(), args);
    }

    public CompletionStage<Reclaimed> reclaim(int shard, int limit, int maxAttempts, DeadLetterPolicy dead) {
        BucketQueue b = scope.buckets();
        if (b != null) {
            return b.reclaim(shard, limit, maxAttempts, dead);
        }
        List<String> args = List.of(String.valueOf(limit), String.valueOf(maxAttempts),
                String.valueOf(dead.maxCount()), String.valueOf(dead.maxAge().toMillis()));
        return scripts.<List<Object>>run(LuaScript.RECLAIM, keys(shard).scriptKeys(), args)
                .thenApply(reply -> new Reclaimed(asLong(reply.get(0)), asLong(reply.get(1))));
    }

}
