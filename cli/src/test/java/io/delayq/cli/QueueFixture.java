package io.delayq.cli;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.Replies;
import io.delayq.testing.RedisServerExtension;
import io.delayq.task.TaskSpec;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Real queue data for the CLI tests, written through the core client and protocol as producers and
 * workers write it: scheduled tasks, tasks in flight under a lease, dead letters with an error.
 *
 * <p>Registered on an instance field ({@link #eachTest}), it is a JUnit extension whose client is
 * opened before each test (after the server was flushed, before the test's own {@code @BeforeEach}
 * methods, which may fill the queue) and closed after it.
 */
public final class QueueFixture implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
    public static final Duration WAIT = Duration.ofSeconds(10);

    private final RedisServerExtension redis;
    private final String queue;
    private final int shards;
    private DelayQueueClient client;

    public QueueFixture(RedisServerExtension redis, String queue, int shards) {
        this(redis, queue, shards, true);
    }

    private QueueFixture(RedisServerExtension redis, String queue, int shards, boolean openNow) {
        this.redis = redis;
        this.queue = queue;
        this.shards = shards;
        if (openNow) {
            this.client = connect();
        }
    }

    /**
     * A queue opened anew for every test on the class's server:
     * {@code @RegisterExtension final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);}.
     */
    public static QueueFixture eachTest(RedisServerExtension redis, String queue, int shards) {
        return new QueueFixture(redis, queue, shards, false);
    }

    private DelayQueueClient connect() {
        return DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(shards).build();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        client = connect();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (client != null) {
            close();
            client = null;
        }
    }

    public DelayQueueClient client() {
        return client;
    }

    public QueueProtocol protocol() {
        return client.protocol();
    }

    public int shardOf(String id) {
        return client.protocol().shardOf(id);
    }

    public void schedule(String id, Duration delay, String payload) {
        client.enqueue(TaskSpec.of(id).after(delay).payload(payload));
    }

    public void scheduleAt(String id, Instant due, String payload) {
        client.enqueue(TaskSpec.of(id).at(due).payload(payload));
    }

    /** Enqueues the tasks due now and claims them as a worker would; answers the claimed tasks. */
    public List<ClaimedTask> inFlight(Duration lease, String... ids) {
        for (String id : ids) {
            client.enqueue(TaskSpec.of(id).payload("payload of " + id));
        }
        Set<String> wanted = Set.of(ids);
        List<ClaimedTask> claimed = new ArrayList<>();
        for (int shard : Arrays.stream(ids).mapToInt(this::shardOf).distinct().toArray()) {
            ClaimBatch batch = Replies.await(protocol().claim(shard, 1000, lease, RateLimit.NONE), WAIT);
            batch.tasks().stream().filter(t -> wanted.contains(t.id())).forEach(claimed::add);
        }
        return claimed;
    }

    /** Makes dead letters: due now, claimed, then failed permanently with the given error (as a handler's 4xx would). */
    public void dead(String error, String... ids) {
        for (ClaimedTask t : inFlight(Duration.ofSeconds(30), ids)) {
            Replies.await(protocol().retry(t, Duration.ZERO, error, 5, true, DeadLetterPolicy.DEFAULT), WAIT);
        }
    }

    /** Moves a dead letter's time of death into the past (the score of the dead set), to test age filters. */
    public void diedAgo(String id, Duration ago) throws Exception {
        long now = serverNow();
        redis.admin().commands().zadd(protocol().keys(shardOf(id)).dead(), (double) (now - ago.toMillis()), id).get();
    }

    public long serverNow() throws Exception {
        List<String> t = redis.admin().commands().time().get();
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    @Override
    public void close() {
        client.close();
    }
}
