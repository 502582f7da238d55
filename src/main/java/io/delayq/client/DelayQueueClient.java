package io.delayq.client;

import io.delayq.InvalidInputException;
import io.delayq.backlog.QueueStats;
import io.delayq.browse.BrowsePage;
import io.delayq.browse.BrowseQuery;
import io.delayq.pause.PauseState;
import io.delayq.deadletter.DeadLetterPage;
import io.delayq.queue.QueueName;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.Sharding;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The producer client of one queue:
 * <pre>
 * try (DelayQueueClient orders = DelayQueueClient.builder()
 *         .redis("redis://localhost:6379").queue("orders").shards(16).build()) {
 *     orders.enqueue(TaskSpec.of("order-8812").after(Duration.ofMinutes(30)).payload("{\"action\":\"cancel-if-unpaid\"}"));
 * }
 * </pre>
 * Building it checks the queue's shard count in Redis and fails with {@code ShardCountMismatchException}
 * when it differs. Every method has an asynchronous twin on {@link #async()}.
 */
public final class DelayQueueClient implements AutoCloseable {
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 64 * 1024;

    private final RedisEndpoint redis;
    private final boolean ownsRedis;
    private final QueueProtocol protocol;
    private final AsyncDelayQueueClient async;
    private final Duration timeout;

    private DelayQueueClient(RedisEndpoint redis, boolean ownsRedis, QueueProtocol protocol, int maxPayloadBytes, Duration timeout,
                             ReplicaAcks replicaAcks) {
        this.redis = redis;
        this.ownsRedis = ownsRedis;
        this.protocol = protocol;
        this.async = new AsyncDelayQueueClient(protocol, maxPayloadBytes, replicaAcks);
        this.timeout = timeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    public AsyncDelayQueueClient async() {
        return async;
    }

    public Duration timeout() {
        return timeout;
    }

    public QueueProtocol protocol() {
        return protocol;
    }

    public RedisEndpoint redis() {
        return redis;
    }

    public EnqueueResult enqueue(TaskSpec task) {
        return awaitRouted(async.enqueue(task));
    }

    public EnqueueResult enqueue(TaskSpec task, DuplicatePolicy policy) {
        return awaitRouted(async.enqueue(task, policy));
    }

    public List<EnqueueResult> enqueueAll(Collection<TaskSpec> tasks) {
        return awaitRouted(async.enqueueAll(tasks, DuplicatePolicy.REJECT));
    }

    public List<EnqueueResult> enqueueAll(Collection<TaskSpec> tasks, DuplicatePolicy policy) {
        return awaitRouted(async.enqueueAll(tasks, policy));
    }

    public CancelResult cancel(String id) {
        return awaitRouted(async.cancel(id));
    }

    public RescheduleResult reschedule(String id, Instant dueAt) {
        return reschedule(id, Schedule.at(dueAt));
    }

    public RescheduleResult reschedule(String id, Duration delay) {
        return reschedule(id, Schedule.after(delay));
    }

    /** Moves a waiting task to the time {@code schedule} names (an instant, a delay, or business time). */
    public RescheduleResult reschedule(String id, Schedule schedule) {
        return awaitRouted(async.reschedule(id, schedule));
    }

    public TaskInfo inspect(String id) {
        return awaitRouted(async.inspect(id));
    }

    public QueueStats stats() {
        return await(async.stats());
    }

    public DeadLetterPage deadLetters(int shard, long offset, int limit) {
        return await(async.deadLetters(shard, offset, limit));
    }

    public long replayDead(Collection<String> ids) {
        return await(async.replayDead(ids));
    }

    public long purgeDead(Collection<String> ids) {
        return await(async.purgeDead(ids));
    }

    /** One page of the queue's tasks in a state, across shards in due-time order; page on with {@code query.after(page.next())}. */
    public BrowsePage browse(BrowseQuery query) {
        return await(async.browse(query));
    }

    /** Pauses the queue (every claim hands out nothing; due times are kept); {@code who} is recorded. */
    public PauseState pause(String who) {
        return await(async.pause(who));
    }

    public PauseState resume(String who) {
        return await(async.resume(who));
    }

    public PauseState pauseState() {
        return await(async.pauseState());
    }

    /** Waits for an asynchronous answer and rethrows its cause as it was raised. */
    <T> T await(CompletionStage<T> stage) {
        return Replies.await(stage, timeout);
    }

    /**
     * An id-routed call (enqueue, cancel, reschedule, inspect) waits out a layout change or a task in a mover's hands
     * for up to {@link IdRouting#PATIENCE} and then fails with its own message; each Redis command inside it is bounded by
     * the timeout. Waiting only the timeout would cut that message off with a bare "no answer" when both are equal.
     */
    private <T> T awaitRouted(CompletionStage<T> stage) {
        return Replies.await(stage, timeout.plus(IdRouting.PATIENCE));
    }

    @Override
    public void close() {
        if (ownsRedis) {
            redis.close();
        }
    }

    public static final class Builder {
        private String url;
        private RedisEndpoint endpoint;
        private String queue;
        private int shards;
        private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
        private Duration timeout = RedisEndpoint.DEFAULT_COMMAND_TIMEOUT;
        private int replicaAcks;
        private Duration replicaAckTimeout;

        public Builder redis(String url) {
            this.url = url;
            return this;
        }

        /** Shares an existing endpoint (one connection per Redis); the client will not close it. */
        public Builder redis(RedisEndpoint shared) {
            this.endpoint = shared;
            return this;
        }

        public Builder queue(String name) {
            this.queue = name;
            return this;
        }

        public Builder shards(int count) {
            this.shards = count;
            return this;
        }

        public Builder maxPayloadBytes(int bytes) {
            if (bytes < 1 || bytes > 512 * 1024 * 1024) {
                throw new InvalidInputException("maxPayloadBytes", "must be between 1 and 536870912, got " + bytes);
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        public Builder timeout(Duration t) {
            if (t == null || t.isNegative() || t.isZero()) {
                throw new InvalidInputException("timeout", "must be positive, got " + t);
            }
            this.timeout = t;
            return this;
        }

        /**
         * Every enqueue waits until at least {@code replicas} replicas hold it ({@code WAIT} on the connection
         * to the shard's primary), at most {@code timeout}; fewer acknowledgements fail the call with
         * {@link ReplicaAckException} (retrying is safe). For producers that cannot lose a task to a
         * failover: async replication loses the writes a primary acknowledged but had not yet shipped.
         * WAIT holds up the other commands of that connection meanwhile: give such a producer its own client.
         */
        public Builder replicaAcks(int replicas, Duration timeout) {
            if (replicas < 1 || replicas > 100) {
                throw new InvalidInputException("replicaAcks.replicas", "must be between 1 and 100, got " + replicas);
            }
            if (timeout == null || timeout.toMillis() < 1) {
                throw new InvalidInputException("replicaAcks.timeout", "must be at least 1 ms (WAIT 0 would block forever), got " + timeout);
            }
            this.replicaAcks = replicas;
            this.replicaAckTimeout = timeout;
            return this;
        }

        public DelayQueueClient build() {
            if (endpoint == null && url == null) {
                throw new InvalidInputException("redis", "a Redis URL or endpoint is required");
            }
            // bad input is reported as such even when Redis is unreachable: check it before connecting
            QueueName.require(queue);
            Sharding.requireShardCount(shards);
            if (replicaAcks > 0 && replicaAckTimeout.compareTo(timeout) >= 0) {
                throw new InvalidInputException("replicaAcks.timeout", "must be shorter than the client's timeout ("
                        + timeout.toMillis() + " ms), got " + replicaAckTimeout.toMillis() + " ms");
            }
            boolean owns = endpoint == null;
            RedisEndpoint redis = owns ? RedisEndpoint.connect(url) : endpoint;
            try {
                QueueProtocol protocol = new QueueProtocol(redis, queue, shards);
                Replies.await(protocol.verifyMeta(), timeout);
                ReplicaAcks acks = replicaAcks > 0 ? new ReplicaAcks(redis, protocol, replicaAcks, replicaAckTimeout) : null;
                return new DelayQueueClient(redis, owns, protocol, maxPayloadBytes, timeout, acks);
            } catch (RuntimeException e) {
                if (owns) {
                    redis.close();
                }
                throw e;
            }
        }
    }
}
