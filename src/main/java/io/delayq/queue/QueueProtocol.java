package io.delayq.queue;

import io.delayq.backlog.QueueStats;
import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowsedTask;
import io.delayq.browse.Position;
import io.delayq.browse.ShardPage;
import io.delayq.pause.PauseRecord;
import io.delayq.pause.PauseState;
import io.delayq.pause.PauseStep;
import io.delayq.backlog.ShardStats;
import io.delayq.claim.ClaimAhead;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RefusedTask;
import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPage;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.layout.Layout;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.redis.RedisEndpoint;
import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;
import io.delayq.shard.RecordBuckets;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The typed form of every Lua script of one queue: the only place that knows the scripts'
 * argument and reply layouts. The producer client and the worker both speak through it.
 */
public final class QueueProtocol {
    /**
     * 2: records in bucketed hashes ({@code tasks:<b>}) and the compact record form. Version 1 was
     * never released with data to keep, so there is no migration: a v1 worker or client meeting a
     * v2 queue (or the reverse) refuses with {@link ProtocolVersionMismatchException}.
     */
    public static final int PROTOCOL_VERSION = 2;
    /** Arguments per script call stay well under Lua's unpack() limit. */
    public static final int MAX_PER_CALL = 500;

    private final String queue;
    /** The count this protocol object was configured with; the layout's count may have grown since. */
    private final int configuredShards;
    private final ScriptRunner scripts;
    private final io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands<String, String> commands;
    private final AtomicReferenceArray<ShardKeys> keys = new AtomicReferenceArray<>(Sharding.MAX_SHARDS);
    /** Read from the meta hash by {@link #verifyMeta} and {@link #refreshLayout}; the id-addressed scripts check its epoch. */
    private volatile Layout layout;

    public QueueProtocol(RedisEndpoint redis, String queue, int shards) {
        this.queue = QueueName.require(queue);
        this.configuredShards = Sharding.requireShardCount(shards);
        this.scripts = new ScriptRunner(redis.commands());
        this.commands = redis.commands();
        this.layout = Layout.initial(shards);
    }

    public String queue() {
        return queue;
    }

    /** The current layout's shard count (during a migration: the new one; shards 0..count-1 all hold tasks). */
    public int shards() {
        return layout.shards();
    }

    public Layout layout() {
        return layout;
    }

    public ShardKeys keys(int shard) {
        ShardKeys k = keys.get(shard);
        if (k == null) {
            k = new ShardKeys(queue, shard);
            keys.set(shard, k);
        }
        return k;
    }

    public int shardOf(String id) {
        return layout.shardOf(id);
    }

    /**
     * Records the shard count on first use; fails when Redis holds another protocol, or a shard count
     * this queue never had. A count the queue had before a reshard is followed: the layout is the meta's.
     */
    public CompletionStage<Void> verifyMeta() {
        return scripts.<List<Object>>run(LuaScript.META, List.of(ShardKeys.meta(queue)),
                List.of(String.valueOf(configuredShards), String.valueOf(PROTOCOL_VERSION))).thenAccept(reply -> {
            long recordedShards = asLong(reply.get(0));
            long recordedProtocol = asLong(reply.get(1));
            Layout recorded = Layout.fromMeta(reply);
            if (recordedShards != configuredShards && !recorded.history().contains(configuredShards)) {
                throw new ShardCountMismatchException(queue, configuredShards, recordedShards);
            }
            if (recordedProtocol != PROTOCOL_VERSION) {
                throw new ProtocolVersionMismatchException(queue, PROTOCOL_VERSION, recordedProtocol);
            }
            layout = recorded;
        });
    }

    /** Re-reads the layout from the meta hash (after a LAYOUT answer, or periodically). */
    public CompletionStage<Layout> refreshLayout() {
        return commands.hmget(ShardKeys.meta(queue), "shards", "protocol", "layout", "layouts", "migration", "moved", "left").thenApply(kv -> {
            List<Object> values = new ArrayList<>();
            kv.forEach(v -> values.add(v.getValueOrElse(null)));
            if (values.get(0) != null) {
                layout = Layout.fromMeta(values);
            }
            return layout;
        });
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
        if (policy == DuplicatePolicy.ONCE) {
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
        return enqueueAt(shard, tasks, policy, enqueuedAt, layout.epoch(), false, scripts)
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
        if (batch < 1 || batch > MAX_PER_CALL * 2) {
            throw new io.delayq.InvalidInputException("batch", "must be between 1 and " + MAX_PER_CALL * 2 + ", got " + batch);
        }
        if (lease == null || lease.toMillis() < 1) {
            throw new io.delayq.InvalidInputException("lease", "must be at least 1 ms, got " + lease);
        }
        if (ahead.maxTasks() > MAX_PER_CALL * 2) {
            throw new io.delayq.InvalidInputException("claimAheadMax", "must be at most " + MAX_PER_CALL * 2 + ", got " + ahead.maxTasks());
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
        if (ahead.enabled()) {
            args = new ArrayList<>(args);
            args.add(String.valueOf(ahead.window().toMillis()));
            args.add(String.valueOf(ahead.maxTasks()));
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
            boolean lookedAhead = reply.size() <= flag || asLong(reply.get(flag)) == 1;
            return new ClaimBatch(shard, now, next, tasks, refused, lookedAhead);
        });
    }

    /** Every record bucket's number as the ack's argument text (formatted once, not per acked task). */
    private static final String[] BUCKET_TEXT = java.util.stream.IntStream.range(0, RecordBuckets.BUCKETS)
            .mapToObj(String::valueOf).toArray(String[]::new);

    /** Acks tasks of one shard (at most {@link #MAX_PER_CALL}); the answer says, per task, whether the lease was still ours. */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks) {
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
        return scripts.<List<Object>>run(LuaScript.ACK, keys(shard).scriptKeys(), args).thenApply(reply -> {
            Boolean[] acked = new Boolean[n];
            for (int k = 0; k < n; k++) {
                acked[(int) byBucket[k]] = asLong(reply.get(k)) == 1;
            }
            return Arrays.asList(acked);
        });
    }

    public CompletionStage<RetryResult> retry(ClaimedTask task, Duration backoff, String error, int maxAttempts,
                                              boolean permanent, DeadLetterPolicy dead) {
        List<String> args = List.of(task.id(), String.valueOf(task.token()), String.valueOf(backoff.toMillis()),
                error == null ? "" : error, String.valueOf(maxAttempts), permanent ? "1" : "0",
                String.valueOf(dead.maxCount()), String.valueOf(dead.maxAge().toMillis()));
        return scripts.<List<Object>>run(LuaScript.RETRY, keys(task.shard()).scriptKeys(), args).thenApply(reply ->
                new RetryResult(RetryResult.Status.valueOf(((String) reply.get(0)).toUpperCase()), asLong(reply.get(1))));
    }

    /** Extends the leases of tasks of one shard; the answer holds the new token, or 0 where the lease was lost. */
    public CompletionStage<List<Long>> extend(int shard, List<ClaimedTask> tasks, Duration lease) {
        return extend(shard, tasks, lease, UUID.randomUUID().toString());
    }

    /** An extension under a caller-chosen request id: sent again, it answers the tokens of its first run. */
    public CompletionStage<List<Long>> extend(int shard, List<ClaimedTask> tasks, Duration lease, String requestId) {
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
                .thenApply(reply -> reply.stream().map(QueueProtocol::asLong).collect(Collectors.toList()));
    }

    public CompletionStage<Reclaimed> reclaim(int shard, int limit, int maxAttempts, DeadLetterPolicy dead) {
        List<String> args = List.of(String.valueOf(limit), String.valueOf(maxAttempts),
                String.valueOf(dead.maxCount()), String.valueOf(dead.maxAge().toMillis()));
        return scripts.<List<Object>>run(LuaScript.RECLAIM, keys(shard).scriptKeys(), args)
                .thenApply(reply -> new Reclaimed(asLong(reply.get(0)), asLong(reply.get(1))));
    }

    /** What a shard answered for one id: the value, or that the shard does not hold it, or that it is being moved. */
    public record Found<T>(T value, boolean unknown, boolean moving) {
    }

    /** The cancel script on one shard under the caller's layout epoch. */
    public CompletionStage<Found<CancelResult>> cancelAt(int shard, String id, long epoch) {
        return scripts.<String>run(LuaScript.CANCEL, keys(shard).scriptKeys(), List.of(id, String.valueOf(epoch))).thenApply(reply -> switch (reply) {
            case "cancelled" -> new Found<>(CancelResult.CANCELLED, false, false);
            case "inflight" -> new Found<>(CancelResult.IN_FLIGHT, false, false);
            case "moving" -> new Found<>(CancelResult.UNKNOWN, false, true);
            default -> new Found<>(CancelResult.UNKNOWN, true, false);
        });
    }

    public CompletionStage<Found<RescheduleResult>> rescheduleAt(int shard, String id, Schedule schedule, long epoch) {
        return scripts.<List<Object>>run(LuaScript.RESCHEDULE, keys(shard).scriptKeys(),
                List.of(id, schedule.timing().wire(), String.valueOf(schedule.millis()), String.valueOf(epoch))).thenApply(reply -> {
            String wire = (String) reply.get(0);
            RescheduleResult.Status status = switch (wire) {
                case "rescheduled" -> RescheduleResult.Status.RESCHEDULED;
                case "inflight" -> RescheduleResult.Status.IN_FLIGHT;
                case "dead" -> RescheduleResult.Status.DEAD;
                default -> RescheduleResult.Status.UNKNOWN;
            };
            return new Found<>(new RescheduleResult(status, asLong(reply.get(1))), wire.equals("unknown"), wire.equals("moving"));
        });
    }

    public CompletionStage<Found<TaskInfo>> inspectAt(int shard, String id, long epoch) {
        return scripts.<List<Object>>run(LuaScript.INSPECT, keys(shard).scriptKeys(), List.of(id, String.valueOf(epoch))).thenApply(reply -> {
            String wire = (String) reply.get(1);
            TaskInfo.State state = switch (wire) {
                case "scheduled" -> TaskInfo.State.SCHEDULED;
                case "inflight" -> TaskInfo.State.IN_FLIGHT;
                case "dead" -> TaskInfo.State.DEAD;
                default -> TaskInfo.State.UNKNOWN;
            };
            return new Found<>(new TaskInfo(id, shard, state, asLong(reply.get(2)), (int) asLong(reply.get(3)), (int) asLong(reply.get(4)),
                    (String) reply.get(5), (String) reply.get(6), asLong(reply.get(0))), wire.equals("unknown"), wire.equals("moving"));
        });
    }

    public CompletionStage<ShardStats> stats(int shard) {
        List<String> statsKeys = new ArrayList<>(keys(shard).scriptKeys());
        statsKeys.add(keys(shard).paused());
        return scripts.<List<Object>>run(LuaScript.STATS, statsKeys, List.of()).thenApply(r ->
                new ShardStats(shard, asLong(r.get(0)), asLong(r.get(1)), asLong(r.get(2)), asLong(r.get(3)), asLong(r.get(4)), asLong(r.get(5)),
                        r.size() > 6 && asLong(r.get(6)) == 1));
    }

    /** Stats of the given shards, fetched in parallel over the shared connection. */
    public CompletionStage<QueueStats> stats(IntStream shardNumbers) {
        List<CompletableFuture<ShardStats>> all = shardNumbers.mapToObj(s -> stats(s).toCompletableFuture()).toList();
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(v -> new QueueStats(queue, all.stream().map(CompletableFuture::join).toList()));
    }

    public CompletionStage<DeadLetterPage> deadLetters(int shard, long offset, int limit) {
        return scripts.<List<Object>>run(LuaScript.DEAD_LIST, keys(shard).scriptKeys(),
                List.of(String.valueOf(offset), String.valueOf(limit))).thenApply(reply -> {
            List<DeadLetter> entries = new ArrayList<>();
            for (int at = 1; at + 4 < reply.size() + 1 && at < reply.size(); at += 5) {
                entries.add(new DeadLetter(shard, (String) reply.get(at), asLong(reply.get(at + 1)),
                        (int) asLong(reply.get(at + 2)), (String) reply.get(at + 3), (String) reply.get(at + 4)));
            }
            return new DeadLetterPage(shard, asLong(reply.get(0)), entries);
        });
    }

    public CompletionStage<Long> replayDead(int shard, List<String> ids) {
        return scripts.run(LuaScript.DEAD_REPLAY, keys(shard).scriptKeys(), ids);
    }

    public CompletionStage<Long> purgeDead(int shard, List<String> ids) {
        return scripts.run(LuaScript.DEAD_PURGE, keys(shard).scriptKeys(), ids);
    }

    /** One bounded page of one shard (browse.lua); {@link io.delayq.browse.TaskBrowser} merges the shards. */
    public CompletionStage<ShardPage> browse(int shard, BrowseQuery query, Position after, int limit, int scanBudget, int previewBytes) {
        List<String> args = List.of(query.state().wire(),
                after == null ? "" : String.valueOf(after.score()), after == null ? "" : after.id(),
                query.from() == null ? "" : String.valueOf(query.from().toEpochMilli()),
                query.to() == null ? "" : String.valueOf(query.to().toEpochMilli()),
                query.idPrefix(), String.valueOf(limit), String.valueOf(scanBudget), String.valueOf(previewBytes));
        return scripts.<List<Object>>run(LuaScript.BROWSE, keys(shard).scriptKeys(), args).thenApply(r -> {
            int n = (int) asLong(r.get(5));
            List<BrowsedTask> tasks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int at = 6 + i * 7;
                tasks.add(new BrowsedTask((String) r.get(at), shard, query.state(), asLong(r.get(at + 1)), (int) asLong(r.get(at + 2)),
                        (int) asLong(r.get(at + 3)), (String) r.get(at + 4), (String) r.get(at + 5), asLong(r.get(at + 6))));
            }
            Position frontier = asLong(r.get(2)) == 1 ? null : new Position(asLong(r.get(3)), (String) r.get(4));
            return new ShardPage(shard, asLong(r.get(0)), asLong(r.get(1)), frontier, tasks);
        });
    }

    /**
     * One step of a pause or resume in the queue's meta hash (pause.lua): the record, with who did it,
     * and the epoch that orders this call's shard writes against every other call's.
     *
     * @param epoch for {@link PauseStep#RESUMED}: the epoch its {@link PauseStep#RESUME} step answered; else ignored
     */
    public CompletionStage<PauseRecord> recordPause(PauseStep step, String who, long epoch) {
        return scripts.<List<Object>>run(LuaScript.PAUSE, List.of(ShardKeys.meta(queue)), List.of(step.wire(), who == null ? "" : who,
                        step == PauseStep.RESUMED ? Long.toString(epoch) : ""))
                .thenApply(r -> new PauseRecord(new PauseState(asLong(r.get(1)) >= 0, asLong(r.get(1)), (String) r.get(2)), asLong(r.get(3))));
    }

    /** The pause as recorded in the meta hash (a plain read: no script needed). */
    public CompletionStage<PauseState> pauseState() {
        return commands.hmget(ShardKeys.meta(queue), "paused", "pausedBy").thenApply(kv -> {
            String at = kv.get(0).getValueOrElse(null);
            return at == null ? new PauseState(false, -1, "") : new PauseState(true, Long.parseLong(at), kv.get(1).getValueOrElse(""));
        });
    }

    /**
     * Sets or clears one shard's pause flag (shard_pause.lua) on behalf of the call that took {@code epoch};
     * true when it changed, false when it already was so or a call with a later epoch had decided it.
     */
    public CompletionStage<Boolean> pauseShard(int shard, boolean pause, long epoch) {
        List<String> k = new ArrayList<>(keys(shard).scriptKeys());
        k.add(keys(shard).paused());
        return scripts.<Long>run(LuaScript.SHARD_PAUSE, k, List.of(pause ? "1" : "0", Long.toString(epoch))).thenApply(v -> v == 1);
    }

    // --- resharding (io.delayq.reshard.Mover) ---

    /** reshard_begin.lua: {"started" | "resumed", epoch, from, to}; a shrink, the same count or a second migration fail with "RESHARD ...". */
    public CompletionStage<List<Object>> reshardBegin(int to) {
        return scripts.run(LuaScript.RESHARD_BEGIN, List.of(ShardKeys.meta(queue)), List.of(String.valueOf(to)));
    }

    /** reshard_finish.lua: the new epoch. */
    public CompletionStage<Long> reshardFinish(long epoch, long moved) {
        return scripts.run(LuaScript.RESHARD_FINISH, List.of(ShardKeys.meta(queue)), List.of(String.valueOf(epoch), String.valueOf(moved)));
    }

    /** Writes a shard's layout stamp (include/layout.lua: field {@code stamp} of the shard's {@code layout} hash). */
    public CompletionStage<Boolean> stamp(int shard, Layout of) {
        return commands.hset(keys(shard).layout(), "stamp", of.stamp());
    }

    /** Records migration progress in the meta hash (read by stats, the CLI and the operator). */
    public CompletionStage<Long> recordProgress(long moved, long left) {
        return commands.hset(ShardKeys.meta(queue), java.util.Map.of("moved", String.valueOf(moved), "left", String.valueOf(left)));
    }

    /** Tasks waiting (all due levels) or dead on one shard: what a pass of the mover looks at. */
    public CompletionStage<Long> waitingCount(int shard) {
        ShardKeys k = keys(shard);
        List<CompletableFuture<Long>> counts = List.of(commands.zcard(k.due(0)).toCompletableFuture(), commands.zcard(k.due(1)).toCompletableFuture(),
                commands.zcard(k.due(2)).toCompletableFuture(), commands.zcard(k.groupedDue()).toCompletableFuture(),
                commands.zcard(k.dead()).toCompletableFuture());
        return CompletableFuture.allOf(counts.toArray(CompletableFuture[]::new)).thenApply(v -> counts.stream().mapToLong(CompletableFuture::join).sum());
    }

    /**
     * One batch move_out.lua took (or the batch already waiting in {@code moving}); {@code to}: the shard count it
     * was taken for, which its ids are delivered by (0 for a batch of an earlier version: the caller's count).
     */
    public record MoveBatch(boolean pending, long nextOffset, long skipped, long misplacedInflight, long seq, long looked,
                            List<String> ids, List<String> states, int to) {
        /** The shard count to deliver by: the batch's own, else {@code fallback}. */
        public int deliverBy(int fallback) {
            return to > 0 ? to : fallback;
        }
    }

    public CompletionStage<MoveBatch> moveOut(int shard, int to, String set, long offset, int budget, long windowMillis) {
        List<String> k = new ArrayList<>(keys(shard).scriptKeys());
        k.add(keys(shard).moving());
        k.add(keys(shard).moveSeq());
        return scripts.<List<Object>>run(LuaScript.MOVE_OUT, k, List.of(String.valueOf(to), String.valueOf(shard), set,
                String.valueOf(offset), String.valueOf(budget), String.valueOf(windowMillis))).thenApply(r -> {
            int n = (int) asLong(r.get(6));
            List<String> ids = new ArrayList<>(n);
            List<String> states = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ids.add((String) r.get(7 + 2 * i));
                states.add((String) r.get(8 + 2 * i));
            }
            int batchTo = r.size() > 7 + 2 * n ? (int) asLong(r.get(7 + 2 * n)) : 0;
            return new MoveBatch(asLong(r.get(0)) == 1, asLong(r.get(1)), asLong(r.get(2)), asLong(r.get(3)), asLong(r.get(4)),
                    asLong(r.get(5)), ids, states, batchTo);
        });
    }

    /** move_in.lua on the tasks' new shard: {added, merged, already applied}. */
    public CompletionStage<List<Long>> moveIn(int shard, int source, long seq, List<String> ids, List<String> states) {
        List<String> k = new ArrayList<>(keys(shard).scriptKeys());
        k.add(keys(shard).arrived());
        List<String> args = new ArrayList<>(3 + ids.size() * 2);
        args.add(String.valueOf(source));
        args.add(String.valueOf(seq));
        args.add(String.valueOf(ids.size()));
        for (int i = 0; i < ids.size(); i++) {
            args.add(ids.get(i));
            args.add(states.get(i));
        }
        return scripts.<List<Object>>run(LuaScript.MOVE_IN, k, args).thenApply(r -> r.stream().map(QueueProtocol::asLong).toList());
    }

    public CompletionStage<Long> moveDone(int shard, long seq) {
        return scripts.run(LuaScript.MOVE_DONE, List.of(keys(shard).moving(), keys(shard).moveSeq()), List.of(String.valueOf(seq)));
    }

    /** What reshard_lease.lua answered: whether the caller holds the lease now, its holder, and the ms it still runs. */
    public record MoverLease(boolean held, String holder, long millisLeft) {
    }

    /** The queue's mover lease (reshard_lease.lua): {@code mode} "take", "renew" or "give-back". */
    public CompletionStage<MoverLease> moverLease(String mode, String holder, Duration lease) {
        return scripts.<List<Object>>run(LuaScript.RESHARD_LEASE, List.of(ShardKeys.meta(queue)), List.of(mode, holder, String.valueOf(lease.toMillis())))
                .thenApply(r -> new MoverLease(asLong(r.get(0)) == 1, (String) r.get(1), asLong(r.get(2))));
    }

    /** A page of a shard's {@code once} set (id -> ms it was added in that mode) from {@code minScore}, skipping {@code skip} entries. */
    public CompletionStage<List<io.lettuce.core.ScoredValue<String>>> onceEntries(int shard, double minScore, long skip, int count) {
        return commands.zrangebyscoreWithScores(keys(shard).once(), io.lettuce.core.Range.create(minScore, Double.POSITIVE_INFINITY),
                io.lettuce.core.Limit.create(skip, count));
    }

    /** Adds once-mode entries to a shard's {@code once} set, keeping an entry the shard already has (ZADD NX). */
    public CompletionStage<Long> addOnce(int shard, List<io.lettuce.core.ScoredValue<String>> entries) {
        Object[] scoresAndValues = new Object[entries.size() * 2];
        for (int i = 0; i < entries.size(); i++) {
            scoresAndValues[2 * i] = entries.get(i).getScore();
            scoresAndValues[2 * i + 1] = entries.get(i).getValue();
        }
        return commands.zadd(keys(shard).once(), io.lettuce.core.ZAddArgs.Builder.nx(), scoresAndValues);
    }

    public ScriptRunner scripts() {
        return scripts;
    }

    /** A number from a script reply (an integer, or its text). */
    public static long asLong(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(v.toString());
    }
}
