package io.delayq.testing;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A queue under test: the producer client, the worker-side protocol and a raw connection for
 * checking what the scripts left in Redis. Worker-side calls are wrapped synchronously so that
 * tests read as the contract they check.
 *
 * <p>Registered on an instance field ({@link #eachTest}), it is a JUnit extension that opens the
 * queue before each test (after the server was flushed) and closes it after the test's own
 * {@code @AfterEach} methods, so those can still stop whatever uses the queue first.
 */
public final class TestQueue implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
    public static final Duration WAIT = Duration.ofSeconds(10);

    private final RedisServerExtension server;
    private final String queue;
    private final int shards;
    private DelayQueueClient client;
    private RedisEndpoint raw;

    private TestQueue(DelayQueueClient client, RedisEndpoint raw) {
        this.server = null;
        this.queue = null;
        this.shards = 0;
        this.client = client;
        this.raw = raw;
    }

    private TestQueue(RedisServerExtension server, String queue, int shards) {
        this.server = server;
        this.queue = queue;
        this.shards = shards;
    }

    /**
     * A queue opened anew for every test on the class's server:
     * {@code @RegisterExtension final TestQueue q = TestQueue.eachTest(redis, "orders", 1);}.
     */
    public static TestQueue eachTest(RedisServerExtension server, String queue, int shards) {
        return new TestQueue(server, queue, shards);
    }

    /** A queue on its own connection, checked against (or recorded in) the queue's meta. */
    public static TestQueue open(String redisUrl, String queue, int shards) {
        RedisEndpoint raw = RedisEndpoint.connect(redisUrl);
        try {
            return new TestQueue(DelayQueueClient.builder().redis(redisUrl).queue(queue).shards(shards).build(), raw);
        } catch (RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** A queue on a shared endpoint (e.g. a cluster connection); the caller closes the endpoint. */
    public static TestQueue on(RedisEndpoint endpoint, String queue, int shards) {
        return new TestQueue(DelayQueueClient.builder().redis(endpoint).queue(queue).shards(shards).build(), endpoint);
    }

    /**
     * What {@code client}'s queue left on another server, read through {@code raw} (e.g. a replica of the client's
     * primary). The caller closes both; the view itself is not closed.
     */
    public static TestQueue reading(DelayQueueClient client, RedisEndpoint raw) {
        return new TestQueue(client, raw);
    }

    public DelayQueueClient client() {
        return client;
    }

    public QueueProtocol protocol() {
        return client.protocol();
    }

    public ShardKeys keys(int shard) {
        return protocol().keys(shard);
    }

    public int shardOf(String id) {
        return protocol().shardOf(id);
    }

    public RedisClusterAsyncCommands<String, String> redis() {
        return raw.commands();
    }

    public ClaimBatch claim(int shard, int batch, Duration lease) {
        return sync(protocol().claim(shard, batch, lease, RateLimit.NONE));
    }

    public List<Boolean> ack(ClaimedTask... tasks) {
        return sync(protocol().ack(tasks[0].shard(), List.of(tasks)));
    }

    public RetryResult retry(ClaimedTask task, Duration backoff, String error, int maxAttempts) {
        return sync(protocol().retry(task, backoff, error, maxAttempts, false, DeadLetterPolicy.DEFAULT));
    }

    public RetryResult kill(ClaimedTask task, String error, DeadLetterPolicy policy) {
        return sync(protocol().retry(task, Duration.ZERO, error, 0, true, policy));
    }

    public Reclaimed reclaim(int shard, int maxAttempts) {
        return sync(protocol().reclaim(shard, 100, maxAttempts, DeadLetterPolicy.DEFAULT));
    }

    /** A claim of up to {@code batch} tasks of shard 0 that must answer exactly one. */
    public ClaimedTask claimOne(int batch, Duration lease) {
        List<ClaimedTask> tasks = claim(0, batch, lease).tasks();
        if (tasks.size() != 1) {
            throw new AssertionError("expected one task claimed, got " + tasks);
        }
        return tasks.get(0);
    }

    /** Waits on the server clock (the one leases are measured with) until the lease with this token is over. */
    public void awaitExpiry(long token) {
        org.awaitility.Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> serverNow() > token);
    }

    /** The Redis server's clock in epoch ms (the clock every script uses). */
    public long serverNow() {
        return serverNow(redis());
    }

    public static long serverNow(RedisClusterAsyncCommands<String, String> redis) {
        List<String> t = get(redis.time());
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    /**
     * The lease expiry (ms, server clock) of a task in flight, or null when it is not: protocol 2's in-flight score,
     * or on protocol 3 the lease of the in-flight bucket that holds the id.
     */
    public Long leaseExpiryOf(String id) {
        int shard = shardOf(id);
        if (protocol().buckets() == null) {
            Double score = get(redis().zscore(keys(shard).inflight(), id));
            return score == null ? null : score.longValue();
        }
        String prefix = io.delayq.bucket.BucketLayout.prefix(protocol().queue(), shard);
        for (ScoredValue<String> lease : zrange(prefix + io.delayq.bucket.BucketLayout.LEASE)) {
            if (get(redis().hexists(prefix + "f:" + lease.getValue(), id))) {
                return (long) lease.getScore();
            }
        }
        return null;
    }

    /**
     * Every task waiting on the queue's shards (not in flight, not dead): id → due time, read from protocol 2's due
     * sets or from protocol 3's buckets, as the queue's protocol says.
     */
    public java.util.Map<String, Long> waiting() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (int shard = 0; shard < protocol().shards(); shard++) {
            out.putAll(waiting(shard));
        }
        return out;
    }

    /** As {@link #waiting()}, on one shard. */
    public java.util.Map<String, Long> waiting(int shard) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (int level = 0; level < ShardKeys.PRIORITY_LEVELS; level++) {
            out.putAll(waitingAt(shard, level));
        }
        return out;
    }

    /**
     * The tasks waiting on one shard at one priority level: id → due time, read from protocol 2's due set of the
     * level, or from protocol 3's window buckets of the level and the minutes whose name carries it ({@code .p<level>}).
     */
    public java.util.Map<String, Long> waitingAt(int shard, int level) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        if (protocol().buckets() == null) {
            for (ScoredValue<String> v : zrange(keys(shard).due(level))) {
                out.put(v.getValue(), (long) v.getScore());
            }
            return out;
        }
        String prefix = io.delayq.bucket.BucketLayout.prefix(protocol().queue(), shard);
        List<String> names = new java.util.ArrayList<>(get(redis().zrange(
                io.delayq.bucket.BucketLayout.windowIndexes(protocol().queue(), shard).get(level), 0, -1)));
        for (String name : get(redis().zrange(prefix + io.delayq.bucket.BucketLayout.COARSE_INDEX, 0, -1))) {
            if (levelOf(name) == level && groupOf(name) == null) {
                names.add(name);
            }
        }
        for (String name : names) {
            get(redis().hgetall(prefix + "b:" + name)).forEach((id, value) -> out.put(id, io.delayq.bucket.BucketLayout.dueOf(name, value)));
        }
        return out;
    }

    /** A protocol-3 bucket's priority level: {@code .p<level>} in its name, 0 without. */
    private static int levelOf(String bucketName) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\.p(\\d)").matcher(bucketName);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** A protocol-3 bucket's group: what follows {@code #} up to the last {@code :<k>}, or null. */
    private static String groupOf(String bucketName) {
        int at = bucketName.indexOf('#');
        return at < 0 ? null : bucketName.substring(at + 1, bucketName.lastIndexOf(':'));
    }

    /**
     * The tasks of {@code group} waiting on one shard: id → due time, read from protocol 2's set of the group or from
     * protocol 3's buckets of the group (its windows, listed in {@code gx:<group>}, and its minutes).
     */
    public java.util.Map<String, Long> waitingInGroup(int shard, String group) {
        if (protocol().buckets() == null) {
            return scores(keys(shard).group(group));
        }
        return inGroupBuckets(shard, "gx:" + group, group::equals);
    }

    /** Every grouped task waiting on one shard: id → due time (protocol 2's {@code due:g}, or protocol 3's group buckets). */
    public java.util.Map<String, Long> waitingGrouped(int shard) {
        if (protocol().buckets() == null) {
            return scores(keys(shard).groupedDue());
        }
        return inGroupBuckets(shard, "gidx", java.util.Objects::nonNull);
    }

    private java.util.Map<String, Long> scores(String key) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (ScoredValue<String> v : zrange(key)) {
            out.put(v.getValue(), (long) v.getScore());
        }
        return out;
    }

    /** The tasks of the window buckets listed in {@code index} and of the minutes whose group {@code matches}. */
    private java.util.Map<String, Long> inGroupBuckets(int shard, String index, java.util.function.Predicate<String> matches) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        String prefix = io.delayq.bucket.BucketLayout.prefix(protocol().queue(), shard);
        List<String> names = new java.util.ArrayList<>(get(redis().zrange(prefix + index, 0, -1)));
        for (String name : get(redis().zrange(prefix + io.delayq.bucket.BucketLayout.COARSE_INDEX, 0, -1))) {
            if (matches.test(groupOf(name))) {
                names.add(name);
            }
        }
        for (String name : names) {
            get(redis().hgetall(prefix + "b:" + name)).forEach((id, value) -> out.put(id, io.delayq.bucket.BucketLayout.dueOf(name, value)));
        }
        return out;
    }

    /**
     * The tasks in flight on one shard: id → lease expiry (ms, server clock), read from protocol 2's in-flight set or
     * from protocol 3's in-flight buckets and their leases.
     */
    public java.util.Map<String, Long> inFlight(int shard) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        if (protocol().buckets() == null) {
            for (ScoredValue<String> v : zrange(keys(shard).inflight())) {
                out.put(v.getValue(), (long) v.getScore());
            }
            return out;
        }
        String prefix = io.delayq.bucket.BucketLayout.prefix(protocol().queue(), shard);
        for (ScoredValue<String> lease : zrange(prefix + io.delayq.bucket.BucketLayout.LEASE)) {
            for (String id : get(redis().hkeys(prefix + "f:" + lease.getValue()))) {
                out.put(id, (long) lease.getScore());
            }
        }
        return out;
    }

    public List<ScoredValue<String>> zrange(String key) {
        return get(redis().zrangeWithScores(key, 0, -1));
    }

    /** Every key in a standalone Redis (tests use a fresh server per class, flushed per test). */
    public List<String> allKeys() {
        return get(redis().keys("*"));
    }

    /** The record hashes ({@code dq:{q:i}:tasks:<b>}) that exist now, over all queues and shards (SCAN). */
    public List<String> recordHashes() {
        List<String> found = new java.util.ArrayList<>();
        io.lettuce.core.ScanArgs match = io.lettuce.core.ScanArgs.Builder.matches("dq:*:tasks:*").limit(1000);
        io.lettuce.core.KeyScanCursor<String> cursor = get(redis().scan(match));
        found.addAll(cursor.getKeys());
        while (!cursor.isFinished()) {
            cursor = get(redis().scan(cursor, match));
            found.addAll(cursor.getKeys());
        }
        return found;
    }

    /**
     * The stored record of a task, read as a foreign consumer would: from protocol 2's record hash, or on protocol 3
     * from the value of the bucket that holds it (waiting or in flight) or from the dead letters' records; null when
     * none holds it.
     */
    public String storedRecord(String id) {
        int shard = shardOf(id);
        if (protocol().buckets() == null) {
            return get(redis().hget(keys(shard).record(id), id));
        }
        String prefix = io.delayq.bucket.BucketLayout.prefix(protocol().queue(), shard);
        List<String> buckets = new java.util.ArrayList<>();
        for (String index : List.of("idx", "idx1", "idx2", "gidx", io.delayq.bucket.BucketLayout.COARSE_INDEX)) {
            get(redis().zrange(prefix + index, 0, -1)).forEach(name -> buckets.add("b:" + name));
        }
        get(redis().zrange(prefix + io.delayq.bucket.BucketLayout.LEASE, 0, -1)).forEach(name -> buckets.add("f:" + name));
        for (String bucket : buckets) {
            String value = get(redis().hget(prefix + bucket, id));
            if (value != null) {
                return io.delayq.bucket.BucketLayout.recordOf(bucket.substring(2), value);
            }
        }
        String dead = get(redis().hget(prefix + "dv", id));   // <attempts>|<record>
        return dead == null ? null : dead.substring(dead.indexOf('|') + 1);
    }

    public static <T> T sync(CompletionStage<T> stage) {
        return Replies.await(stage, WAIT);
    }

    /** Waits for a raw Lettuce future; failures surface as they were raised. */
    public static <T> T get(RedisFuture<T> future) {
        return sync(future);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (server == null) {
            throw new IllegalStateException("only a queue made by TestQueue.eachTest is opened per test");
        }
        TestQueue opened = open(server.url(), queue, shards);
        client = opened.client;
        raw = opened.raw;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (client != null) {
            close();
            client = null;
            raw = null;
        }
    }

    @Override
    public void close() {
        client.close();
        if (raw != client.redis()) {
            raw.close();
        }
    }
}
