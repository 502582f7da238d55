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
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RefusedTask;
import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPage;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.redis.RedisEndpoint;
import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;
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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
    private final int shards;
    private final ScriptRunner scripts;
    private final io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands<String, String> commands;
    private final List<ShardKeys> keys;

    public QueueProtocol(RedisEndpoint redis, String queue, int shards) {
        this.queue = QueueName.require(queue);
        this.shards = Sharding.requireShardCount(shards);
        this.scripts = new ScriptRunner(redis.commands());
        this.commands = redis.commands();
        this.keys = IntStream.range(0, shards).mapToObj(i -> new ShardKeys(queue, i)).toList();
    }

    public String queue() {
        return queue;
    }

    public int shards() {
        return shards;
    }

    public ShardKeys keys(int shard) {
        return keys.get(shard);
    }

    public int shardOf(String id) {
        return Sharding.shardOf(id, shards);
    }

    /** Records the shard count on first use; fails when Redis holds another count or protocol. */
    public CompletionStage<Void> verifyMeta() {
        return scripts.<List<Object>>run(LuaScript.META, List.of(ShardKeys.meta(queue)),
                List.of(String.valueOf(shards), String.valueOf(PROTOCOL_VERSION))).thenAccept(reply -> {
            long recordedShards = asLong(reply.get(0));
            long recordedProtocol = asLong(reply.get(1));
            if (recordedShards != shards) {
                throw new ShardCountMismatchException(queue, shards, recordedShards);
            }
            if (recordedProtocol != PROTOCOL_VERSION) {
                throw new ProtocolVersionMismatchException(queue, PROTOCOL_VERSION, recordedProtocol);
            }
        });
    }

    /** Tasks of one shard, at most {@link #MAX_PER_CALL}; records are encoded with enqueuedAt. */
    public CompletionStage<List<EnqueueResult>> enqueue(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt) {
        return enqueue(shard, tasks, policy, enqueuedAt, scripts);
    }

    /** As above, on the given connection (the replica-ack path sends WAIT on the connection that wrote). */
    public CompletionStage<List<EnqueueResult>> enqueue(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt,
                                                        ScriptRunner scripts) {
        List<String> args = new ArrayList<>(2 + tasks.size() * 5);
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
        List<String> enqueueKeys = keys(shard).scriptKeys();
        if (policy == DuplicatePolicy.ONCE) {
            enqueueKeys = new ArrayList<>(enqueueKeys);
            enqueueKeys.add(keys(shard).once());
        }
        return scripts.<List<Object>>run(LuaScript.ENQUEUE, enqueueKeys, args).thenApply(reply -> {
            List<EnqueueResult> results = new ArrayList<>(tasks.size());
            for (int i = 0; i < tasks.size(); i++) {
                results.add(EnqueueResult.fromWire(tasks.get(i).id(), (String) reply.get(1 + 2 * i), asLong(reply.get(2 + 2 * i))));
            }
            return results;
        });
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
        if (batch < 1 || batch > MAX_PER_CALL * 2) {
            throw new io.delayq.InvalidInputException("batch", "must be between 1 and " + MAX_PER_CALL * 2 + ", got " + batch);
        }
        if (lease == null || lease.toMillis() < 1) {
            throw new io.delayq.InvalidInputException("lease", "must be at least 1 ms, got " + lease);
        }
        ShardKeys k = keys(shard);
        List<String> claimKeys = new ArrayList<>(k.scriptKeys());
        claimKeys.add(k.claimRequest(requestId));
        claimKeys.add(k.paused());
        List<String> args = List.of(String.valueOf(batch), String.valueOf(lease.toMillis()),
                String.valueOf(rate.enabled() ? rate.perShard(shards) : 0),
                String.valueOf(rate.enabled() ? rate.burstPerShard(shards) : 0));
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
            return new ClaimBatch(shard, now, next, tasks, refused);
        });
    }

    /** Acks tasks of one shard (at most {@link #MAX_PER_CALL}); the answer says, per task, whether the lease was still ours. */
    public CompletionStage<List<Boolean>> ack(int shard, List<ClaimedTask> tasks) {
        List<String> args = new ArrayList<>(1 + tasks.size() * 2);
        args.add(String.valueOf(tasks.size()));
        for (ClaimedTask t : tasks) {
            args.add(t.id());
            args.add(String.valueOf(t.token()));
        }
        return scripts.<List<Object>>run(LuaScript.ACK, keys(shard).scriptKeys(), args)
                .thenApply(reply -> reply.stream().map(v -> asLong(v) == 1).collect(Collectors.toList()));
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

    public CompletionStage<CancelResult> cancel(String id) {
        return scripts.<String>run(LuaScript.CANCEL, keys(shardOf(id)).scriptKeys(), List.of(id)).thenApply(reply -> switch (reply) {
            case "cancelled" -> CancelResult.CANCELLED;
            case "inflight" -> CancelResult.IN_FLIGHT;
            default -> CancelResult.UNKNOWN;
        });
    }

    public CompletionStage<RescheduleResult> reschedule(String id, Schedule schedule) {
        return scripts.<List<Object>>run(LuaScript.RESCHEDULE, keys(shardOf(id)).scriptKeys(),
                List.of(id, schedule.timing().wire(), String.valueOf(schedule.millis()))).thenApply(reply -> {
            RescheduleResult.Status status = switch ((String) reply.get(0)) {
                case "rescheduled" -> RescheduleResult.Status.RESCHEDULED;
                case "inflight" -> RescheduleResult.Status.IN_FLIGHT;
                case "dead" -> RescheduleResult.Status.DEAD;
                default -> RescheduleResult.Status.UNKNOWN;
            };
            return new RescheduleResult(status, asLong(reply.get(1)));
        });
    }

    public CompletionStage<TaskInfo> inspect(String id) {
        int shard = shardOf(id);
        return scripts.<List<Object>>run(LuaScript.INSPECT, keys(shard).scriptKeys(), List.of(id)).thenApply(reply -> {
            TaskInfo.State state = switch ((String) reply.get(1)) {
                case "scheduled" -> TaskInfo.State.SCHEDULED;
                case "inflight" -> TaskInfo.State.IN_FLIGHT;
                case "dead" -> TaskInfo.State.DEAD;
                default -> TaskInfo.State.UNKNOWN;
            };
            return new TaskInfo(id, shard, state, asLong(reply.get(2)), (int) asLong(reply.get(3)), (int) asLong(reply.get(4)),
                    (String) reply.get(5), (String) reply.get(6), asLong(reply.get(0)));
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

    public ScriptRunner scripts() {
        return scripts;
    }

    static long asLong(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(v.toString());
    }
}
