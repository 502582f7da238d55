package io.delayq.console;

import io.delayq.bucket.BucketLayout;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.sample.SampleQueue;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A console on a real Redis holding real tasks: the sample queue ({@value SampleQueue#QUEUE}, 8 shards:
 * 300 scheduled, 40 due, 2 in flight, 24 dead) and a small second queue {@code coupons}.
 */
public final class ConsoleFixture implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    public static final String TOKEN = "test-token-0123456789";
    static final int SCHEDULED = 300;
    /** Tasks of the second queue, {@code coupons} (2 shards), all scheduled hours ahead. */
    public static final int COUPONS = 3;
    /** A schedule of the sample queue written as the operator writes those of a DelayQueue resource. */
    public static final String MANAGED_SCHEDULE = "recheck-unpaid";
    /** Two workers in the presence registry, as workers write it (worker_beat.lua): shards 0-3 and 4-7. */
    public static final String WORKER_LOW = "worker-low-1a2b3c";
    public static final String WORKER_HIGH = "worker-high-4d5e6f";
    /** The in-flight task whose lease {@link #WORKER_LOW} or {@link #WORKER_HIGH} reports holding (with its token). */
    public static final String HELD = "coupon-expire-77";
    /** The trace viewer the console links trace ids to (DELAYQ_CONSOLE_TRACE_URL). */
    public static final String TRACE_URL = "https://traces.example/trace/{traceId}?from=delayq";
    /** A short history (sampled every second), so that a test's plot has a visible line. */
    public static final Duration HISTORY = Duration.ofSeconds(30);

    final Console console;
    final RedisEndpoint raw;
    final DelayQueueClient orders;

    private final SampleQueue.Counts filled;

    private ConsoleFixture(Console console, RedisEndpoint raw, DelayQueueClient orders, SampleQueue.Counts filled) {
        this.filled = filled;
        this.console = console;
        this.raw = raw;
        this.orders = orders;
    }

    public static ConsoleFixture start(RedisServerExtension redis, String token) throws Exception {
        return start(redis, redis.url(), token);
    }

    public static ConsoleFixture start(RedisServerExtension redis, String consoleUrl, String token) throws Exception {
        return start(redis, consoleUrl, token, new Options(List.of(), "/", ConsoleSettings.DEFAULT_MAX_QUEUES));
    }

    /** The settings a test varies: allowed Host names, the path prefix, the cap on listed queues. */
    public record Options(List<String> allowedHosts, String basePath, int maxQueues) {
    }

    public static ConsoleFixture start(RedisServerExtension redis, String consoleUrl, String token, Options o) throws Exception {
        RedisEndpoint raw = RedisEndpoint.connect(redis.url());
        SampleQueue.Counts filled = SampleQueue.fill(raw, SCHEDULED);
        try (DelayQueueClient coupons = DelayQueueClient.builder().redis(raw).queue("coupons").shards(2).build()) {
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < COUPONS; i++) {
                specs.add(TaskSpec.of("coupon-" + i).after(Duration.ofHours(2 + i)));
            }
            coupons.enqueueAll(specs);
        }
        try (DelayQueueClient c = DelayQueueClient.builder().redis(raw).queue(SampleQueue.QUEUE).shards(SampleQueue.SHARDS).build()) {
            // one the operator wrote from a DelayQueue's spec.schedules: the console leaves it to the resource
            io.delayq.schedule.Schedules.of(c).put(io.delayq.schedule.CronSchedule.of(MANAGED_SCHEDULE, "*/10 * * * *").managedBy("operator"));
        }
        registerWorkers(raw);
        Console console = Console.start(new ConsoleSettings(consoleUrl, "127.0.0.1", 0, token, List.of(),
                Duration.ofSeconds(1), HISTORY, o.allowedHosts(), o.basePath(), o.maxQueues(), TRACE_URL));
        DelayQueueClient orders = DelayQueueClient.builder().redis(raw).queue(SampleQueue.QUEUE).shards(SampleQueue.SHARDS).build();
        return new ConsoleFixture(console, raw, orders, filled);
    }

    /** Heartbeats of two workers (long TTL, so they stay alive through a test); the owner of {@link #HELD}'s shard reports its lease. */
    static void registerWorkers(RedisEndpoint raw) {
        int shard;
        double token;
        try (DelayQueueClient c = DelayQueueClient.builder().redis(raw).queue(SampleQueue.QUEUE).shards(SampleQueue.SHARDS).build()) {
            shard = c.protocol().shardOf(HELD);
            // an in-flight task's inspect answers its lease expiry, the token its worker holds (either protocol)
            token = c.inspect(HELD).score();
        }
        io.delayq.presence.PresenceRegistry r = new io.delayq.presence.PresenceRegistry(raw, SampleQueue.QUEUE, Duration.ofSeconds(5));
        List<io.delayq.presence.PresenceRegistry.HeldLease> held = List.of(new io.delayq.presence.PresenceRegistry.HeldLease(HELD, (long) token));
        r.beat(WORKER_LOW, new io.delayq.shard.ShardRange(0, 3), "0.1.0-SNAPSHOT", "node-a", Duration.ofMinutes(10), shard <= 3 ? 1 : 0,
                shard <= 3 ? held : List.of());
        r.beat(WORKER_HIGH, new io.delayq.shard.ShardRange(4, 7), "0.1.0-SNAPSHOT", "node-b", Duration.ofMinutes(10), shard > 3 ? 1 : 0,
                shard > 3 ? held : List.of());
    }

    public String url() {
        return "http://127.0.0.1:" + console.port() + console.settings().basePath();
    }

    /** A GET of the console's {@code path} (relative to {@link #url()}). */
    public HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST of a JSON body to the console's {@code path}, with headers given as name, value, name, value… */
    public HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The counts the sample queue was filled with, which the pages must show. */
    public SampleQueue.Counts filled() {
        return filled;
    }

    public RedisEndpoint raw() {
        return raw;
    }

    /** A due time in Redis, read directly: the due sets of the id's shard (protocol 3: its id index). */
    public Double dueScore(String id) {
        if (orders.protocol().buckets() != null) {
            String prefix = BucketLayout.prefix(SampleQueue.QUEUE, orders.protocol().shardOf(id));
            String held = Replies.await(raw.commands().hget(prefix + "ix:" + BucketLayout.indexBucket(id), id), Duration.ofSeconds(5));
            return held == null || held.equals("~") ? null : (double) Long.parseLong(held, 36);
        }
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        for (int level = 0; level < 3; level++) {
            Double s = Replies.await(raw.commands().zscore(k.due(level), id), Duration.ofSeconds(5));
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    public boolean isDead(String id) {
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        return Replies.await(raw.commands().zscore(k.dead(), id), Duration.ofSeconds(5)) != null;
    }

    /** A dead letter put straight into its shard's dead set, as one dying now would be. */
    public void addDeadLetter(String id) {
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        Replies.await(raw.commands().zadd(k.dead(), (double) serverNow(), id), Duration.ofSeconds(5));
        if (orders.protocol().buckets() != null) {
            // protocol 3 keeps a dead letter's attempts and record beside it, and '~' in the id index (p3/include/dead.lua)
            String prefix = BucketLayout.prefix(SampleQueue.QUEUE, orders.protocol().shardOf(id));
            Replies.await(raw.commands().hset(prefix + "dv", id, "1|{\"enqueuedAt\":" + serverNow() + "}"), Duration.ofSeconds(5));
            Replies.await(raw.commands().hset(prefix + "ix:" + BucketLayout.indexBucket(id), id, "~"), Duration.ofSeconds(5));
        }
    }

    /** Whether Redis keeps a record of the id: protocol 2's record hash; on protocol 3, an entry in the id index. */
    public boolean hasRecord(String id) {
        if (orders.protocol().buckets() != null) {
            String prefix = BucketLayout.prefix(SampleQueue.QUEUE, orders.protocol().shardOf(id));
            return Replies.await(raw.commands().hexists(prefix + "ix:" + BucketLayout.indexBucket(id), id), Duration.ofSeconds(5));
        }
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        return Replies.await(raw.commands().hexists(k.record(id), id), Duration.ofSeconds(5));
    }

    public long serverNow() {
        List<String> t = Replies.await(raw.commands().time(), Duration.ofSeconds(5));
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    /** Tasks waiting on a shard, as Redis holds them: protocol 2's due sets or protocol 3's buckets. */
    public long waiting(int shard) {
        return waitingOn(shard).size();
    }

    /** Of {@link #waiting(int)}, those due at {@code now}. */
    public long dueBy(int shard, long now) {
        return waitingOn(shard).values().stream().filter(due -> due <= now).count();
    }

    /**
     * id -> due time of a shard's waiting tasks; on protocol 3 also what protocol 2's due sets hold until a claim adopts
     * it (the hand-written {@link SampleQueue#GROUPED}: no worker runs here), which the console counts as waiting too.
     */
    private java.util.Map<String, Long> waitingOn(int shard) {
        java.util.Map<String, Long> out = new java.util.HashMap<>(view().waiting(shard));
        if (orders.protocol().buckets() != null) {
            ShardKeys k = orders.protocol().keys(shard);
            for (int level = 0; level < 3; level++) {
                Replies.await(raw.commands().zrangeWithScores(k.due(level), 0, -1), Duration.ofSeconds(5))
                        .forEach(v -> out.put(v.getValue(), (long) v.getScore()));
            }
        }
        return out;
    }

    /** Tasks in flight on a shard, as Redis holds them: protocol 2's in-flight set or protocol 3's buckets in flight. */
    public long inflight(int shard) {
        return view().inFlight(shard).size();
    }

    private io.delayq.testing.TestQueue view() {
        return io.delayq.testing.TestQueue.reading(orders, raw);
    }

    public long zcard(String key) {
        return Replies.await(raw.commands().zcard(key), Duration.ofSeconds(5));
    }

    public DelayQueueClient orders() {
        return orders;
    }

    public int historySamples(String queue) {
        return console.history().of(queue).size();
    }

    /** The firing lag (oldest overdue age) of the console's latest history sample of a queue; -1 before the first. */
    public long lastSampledLag(String queue) {
        List<io.delayq.console.history.Sample> samples = console.history().of(queue);
        return samples.isEmpty() ? -1 : samples.get(samples.size() - 1).oldestOverdueMs();
    }

    /** A task's lease expiry (its in-flight score, the claim's fencing token), read directly; null when not in flight. */
    public Double inflightScore(String id) {
        if (orders.protocol().buckets() != null) {
            return flightOf(id) == null ? null : (double) orders.inspect(id).score();
        }
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        return Replies.await(raw.commands().zscore(k.inflight(), id), Duration.ofSeconds(5));
    }

    /** Protocol 3: the in-flight bucket holding the task (its name is the fence its worker's calls carry), or null. */
    private String flightOf(String id) {
        String prefix = BucketLayout.prefix(SampleQueue.QUEUE, orders.protocol().shardOf(id));
        for (String name : Replies.await(raw.commands().zrange(prefix + BucketLayout.LEASE, 0, -1), Duration.ofSeconds(5))) {
            if (Replies.await(raw.commands().hexists(prefix + "f:" + name, id), Duration.ofSeconds(5))) {
                return name;
            }
        }
        return null;
    }

    /** Writes progress for an in-flight task as its worker would, under the lease's current token. */
    public void reportProgress(String id, double percent, String note) {
        int shard = orders.protocol().shardOf(id);
        io.delayq.claim.ClaimedTask task = new io.delayq.claim.ClaimedTask(shard, id, 0, 1, inflightScore(id).longValue(), null,
                orders.protocol().buckets() != null ? flightOf(id) : null);
        if (Replies.await(orders.protocol().progress(task, percent, note), Duration.ofSeconds(5)) != 1) {
            throw new AssertionError(id + " is not in flight");
        }
    }

    /**
     * A task {@code id} that ran and was acked by a worker keeping results: put in flight, then acked with a completion
     * record (attempt 1, handler 12 ms, by {@link #WORKER_LOW}, {@code result}).
     */
    public void completed(String id, String result) {
        int shard = orders.protocol().shardOf(id);
        long token = serverNow() + 60_000;
        Replies.await(raw.commands().zadd(orders.protocol().keys(shard).inflight(), token, id), Duration.ofSeconds(5));
        List<Boolean> acked = Replies.await(orders.protocol().ack(shard, List.of(new io.delayq.claim.ClaimedTask(shard, id, 0, 1, token, null)),
                java.util.Set.of(), new io.delayq.completion.ResultRetention(Duration.ofHours(1), 100), WORKER_LOW,
                List.of(new io.delayq.completion.Finished(12, io.delayq.completion.BoundedResult.of(result)))), Duration.ofSeconds(5));
        if (!acked.get(0)) {
            throw new AssertionError(id + " was not acked");
        }
    }

    /** A task's last error as Redis holds it: protocol 2's {@code errors} hash, protocol 3's {@code err}. */
    public String lastError(String id) {
        if (orders.protocol().buckets() != null) {
            String prefix = BucketLayout.prefix(SampleQueue.QUEUE, orders.protocol().shardOf(id));
            return Replies.await(raw.commands().hget(prefix + "err", id), Duration.ofSeconds(5));
        }
        return Replies.await(raw.commands().hget(orders.protocol().keys(orders.protocol().shardOf(id)).errors(), id), Duration.ofSeconds(5));
    }

    /** Attempts that ended without an ack, as Redis holds them (null: none): protocol 2's hash, protocol 3's inspect. */
    public String attempts(String id) {
        if (orders.protocol().buckets() != null) {
            int used = orders.inspect(id).attempts();
            return used == 0 ? null : String.valueOf(used);
        }
        return Replies.await(raw.commands().hget(orders.protocol().keys(orders.protocol().shardOf(id)).attempts(), id), Duration.ofSeconds(5));
    }

    /** Whether a shard's claims are paused: field {@code at} of its pause hash (which also keeps the last call's epoch). */
    public boolean shardPaused(int shard) {
        return Replies.await(raw.commands().hexists(orders.protocol().keys(shard).paused(), "at"), Duration.ofSeconds(5));
    }

    public boolean exists(String key) {
        return Replies.await(raw.commands().exists(key), Duration.ofSeconds(5)) == 1;
    }

    public String metaField(String field) {
        return Replies.await(raw.commands().hget(ShardKeys.meta(SampleQueue.QUEUE), field), Duration.ofSeconds(5));
    }

    @Override
    public void close() {
        console.close();
        orders.close();
        raw.close();
    }
}
