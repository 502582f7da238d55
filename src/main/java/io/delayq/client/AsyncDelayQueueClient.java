package io.delayq.client;

import io.delayq.InvalidInputException;
import io.delayq.backlog.QueueStats;
import io.delayq.browse.BrowsePage;
import io.delayq.browse.BrowseQuery;
import io.delayq.browse.TaskBrowser;
import io.delayq.pause.PauseState;
import io.delayq.pause.QueuePause;
import io.delayq.queue.TaskAdmin;
import io.delayq.backlog.StatsReader;
import io.delayq.deadletter.DeadLetterPage;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.ShardChunk;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskId;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.task.TraceContext;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.IntStream;

/** The producer API in CompletionStage form; every call is one script per shard touched. */
public final class AsyncDelayQueueClient {
    private final QueueProtocol protocol;
    private final int maxPayloadBytes;
    private final ReplicaAcks replicaAcks;
    private final TaskAdmin admin;
    private final StatsReader stats;
    private final TaskBrowser browser;
    private final QueuePause pause;
    private final IdRouting routing;

    /** A client on an existing protocol object (the worker's schedule planner shares the worker's). */
    public AsyncDelayQueueClient(QueueProtocol protocol, int maxPayloadBytes) {
        this(protocol, maxPayloadBytes, null);
    }

    /** @param replicaAcks null: an enqueue is done when the primary answered (Redis's default) */
    AsyncDelayQueueClient(QueueProtocol protocol, int maxPayloadBytes, ReplicaAcks replicaAcks) {
        this.protocol = protocol;
        this.maxPayloadBytes = maxPayloadBytes;
        this.replicaAcks = replicaAcks;
        this.admin = new TaskAdmin(protocol.scope());
        this.stats = new StatsReader(protocol.scope());
        this.browser = new TaskBrowser(protocol);
        this.pause = new QueuePause(protocol);
        this.routing = new IdRouting(protocol);
    }

    public String queue() {
        return protocol.queue();
    }

    public int shards() {
        return protocol.shards();
    }

    public CompletionStage<EnqueueResult> enqueue(TaskSpec task) {
        return enqueue(task, DuplicatePolicy.REJECT);
    }

    public CompletionStage<EnqueueResult> enqueue(TaskSpec task, DuplicatePolicy policy) {
        return enqueueAll(List.of(task), policy).thenApply(r -> r.get(0));
    }

    /**
     * Enqueues many tasks: grouped by shard, at most {@link QueueProtocol#MAX_PER_CALL} per script
     * call, all calls pipelined on the shared connection. Results come back in input order. Every
     * task is validated before anything is sent, so bad input never leaves half a batch written.
     */
    public CompletionStage<List<EnqueueResult>> enqueueAll(Collection<TaskSpec> tasks, DuplicatePolicy policy) {
        if (policy == null) {
            throw new InvalidInputException("duplicatePolicy", "must not be null");
        }
        long enqueuedAt = System.currentTimeMillis();
        // the caller's span (OpenTelemetry agent or SDK), read on the caller's thread: the worker's span joins its trace
        TraceContext trace = TraceContext.current();
        List<TaskSpec> ordered = new ArrayList<>(tasks.size());
        for (TaskSpec t : tasks) {
            requirePayload(t.payload());
            t.requireNotExpired(enqueuedAt);
            requireDebounceMatches(t, policy);
            ordered.add(t.withTraceIfAbsent(trace));
        }
        // grouped by shard, at most MAX_PER_CALL per call, all pipelined; routed by the layout (IdRouting)
        IdRouting.ShardWrite write = (shard, specs, epoch, presentOnly) -> replicaAcks == null
                ? protocol.enqueueAt(shard, specs, policy, enqueuedAt, epoch, presentOnly, protocol.scripts())
                : replicaAcks.enqueue(shard, specs, policy, enqueuedAt, epoch, presentOnly);
        return routing.enqueue(ordered, write).thenApply(placed -> placed.stream().map(QueueProtocol.Placed::result).toList());
    }

    /** Debounce is a policy and a per-task wait together: one without the other is refused, naming what is missing. */
    static void requireDebounceMatches(TaskSpec t, DuplicatePolicy policy) {
        boolean waits = t.options().debounceMaxWaitMs() != null;
        if (policy == DuplicatePolicy.DEBOUNCE && !waits) {
            throw new InvalidInputException("debounceMaxWaitMs", "is required with the DEBOUNCE duplicate policy "
                    + "(TaskSpec.debounce(delay, maxWait)), missing for task " + t.id());
        }
        if (policy != DuplicatePolicy.DEBOUNCE && waits) {
            throw new InvalidInputException("duplicatePolicy", "must be DEBOUNCE for a task with a debounce wait (task "
                    + t.id() + "), got " + policy);
        }
    }

    public CompletionStage<CancelResult> cancel(String id) {
        String checked = TaskId.require(id);
        return routing.byId(checked, (shard, epoch) -> admin.cancelAt(shard, checked, epoch));
    }

    public CompletionStage<RescheduleResult> reschedule(String id, Schedule schedule) {
        if (schedule == null) {
            throw new InvalidInputException("schedule", "must not be null");
        }
        String checked = TaskId.require(id);
        return routing.byId(checked, (shard, epoch) -> admin.rescheduleAt(shard, checked, schedule, epoch));
    }

    public CompletionStage<TaskInfo> inspect(String id) {
        String checked = TaskId.require(id);
        return routing.byId(checked, (shard, epoch) -> admin.inspectAt(shard, checked, epoch));
    }

    public CompletionStage<QueueStats> stats() {
        return stats.stats(IntStream.range(0, protocol.shards()));
    }

    public CompletionStage<DeadLetterPage> deadLetters(int shard, long offset, int limit) {
        if (shard < 0 || shard >= protocol.shards()) {
            throw new InvalidInputException("shard", "must be between 0 and " + (protocol.shards() - 1) + ", got " + shard);
        }
        if (offset < 0) {
            throw new InvalidInputException("offset", "must be 0 or more, got " + offset);
        }
        if (limit < 1 || limit > 10_000) {
            throw new InvalidInputException("limit", "must be between 1 and 10000, got " + limit);
        }
        return admin.deadLetters(shard, offset, limit);
    }

    /** Moves the given dead tasks back to due now with fresh attempts; answers how many were dead. */
    public CompletionStage<Long> replayDead(Collection<String> ids) {
        return perShard(ids, admin::replayDead);
    }

    /** Deletes the given dead tasks for good; answers how many were dead. */
    public CompletionStage<Long> purgeDead(Collection<String> ids) {
        return perShard(ids, admin::purgeDead);
    }

    /** One page of the queue's tasks in a state, across shards in due-time order (see {@link TaskBrowser}). */
    public CompletionStage<BrowsePage> browse(BrowseQuery query) {
        if (query == null) {
            throw new InvalidInputException("query", "must not be null");
        }
        return browser.browse(query);
    }

    /**
     * Pauses the queue: every claim hands out nothing until {@link #resume}; scheduled tasks keep
     * their due times and overdue ones fire once resumed. {@code who} is recorded with the pause.
     */
    public CompletionStage<PauseState> pause(String who) {
        return pause.pause(who);
    }

    public CompletionStage<PauseState> resume(String who) {
        return pause.resume(who);
    }

    /** The pause as the queue's meta hash records it. */
    public CompletionStage<PauseState> pauseState() {
        return pause.state();
    }

    private CompletionStage<Long> perShard(Collection<String> ids, ShardCall call) {
        List<CompletableFuture<Long>> calls = new ArrayList<>();
        // every shard that may hold an id in the queue's layouts (a dead letter is in exactly one of them)
        for (ShardChunk<String> chunk : ShardChunk.ofEach(ids, id -> protocol.layout().lookupOrder(TaskId.require(id)))) {
            calls.add(call.run(chunk.shard(), chunk.items()).toCompletableFuture());
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(v -> calls.stream().mapToLong(CompletableFuture::join).sum());
    }

    private interface ShardCall {
        CompletionStage<Long> run(int shard, List<String> ids);
    }

    private void requirePayload(String payload) {
        if (payload == null) {
            return;
        }
        int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxPayloadBytes) {
            throw new InvalidInputException("payload", "must be at most " + maxPayloadBytes + " bytes of UTF-8 (the client's maxPayloadBytes), got " + bytes);
        }
    }
}
