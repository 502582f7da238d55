package io.delayq.console.queues;

import io.delayq.client.DelayQueueClient;
import io.delayq.console.http.ApiException;
import io.delayq.layout.DamagedMetaException;
import io.delayq.layout.Layout;
import io.delayq.layout.RecordedLayout;
import io.delayq.queue.QueueName;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The queues the console shows, and one client per queue on the shared connection. The list is
 * the configured one, or what a bounded {@code SCAN} for {@code dq:{*}:meta} finds (cached briefly).
 * A queue is opened only when its meta hash exists: the console never creates a queue.
 */
public final class QueueDirectory implements AutoCloseable {
    private static final Duration CACHE = Duration.ofSeconds(15);
    /** SCAN calls per listing (COUNT 1000 each): 200,000 keys looked at, at most. */
    static final int MAX_SCAN_CALLS = 200;

    /**
     * What a listing found. {@code truncated}: the list stopped at the cap on queues or on SCAN calls,
     * so more queues may exist than it names (name them in DELAYQ_CONSOLE_QUEUES to see them).
     */
    public record Listing(List<String> names, boolean truncated, String why) {
    }

    private final RedisEndpoint redis;
    private final List<String> configured;
    private final int maxQueues;
    private final Duration timeout;
    private final Map<String, DelayQueueClient> clients = new ConcurrentHashMap<>();
    private volatile Listing found = new Listing(List.of(), false, null);
    private volatile long foundAt;

    public QueueDirectory(RedisEndpoint redis, List<String> configured, int maxQueues, Duration timeout) {
        this.redis = redis;
        this.configured = configured;
        this.maxQueues = maxQueues;
        this.timeout = timeout;
    }

    public RedisEndpoint redis() {
        return redis;
    }

    /** Names of the queues to show, sorted. */
    public List<String> names() {
        return listing().names();
    }

    /** The queues to show and whether the list is complete. */
    public Listing listing() {
        if (!configured.isEmpty()) {
            return new Listing(configured, false, null);
        }
        long now = System.nanoTime();
        if (foundAt == 0 || now - foundAt > CACHE.toNanos()) {
            found = scan();
            foundAt = now;
        }
        return found;
    }

    /** Forgets the cached list, so that a queue created a moment ago shows at once. */
    public void refresh() {
        foundAt = 0;
    }

    private Listing scan() {
        TreeSet<String> names = new TreeSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        ScanArgs args = ScanArgs.Builder.matches("dq:{*}:meta").limit(1000);
        int calls = 0;
        while (!cursor.isFinished() && calls < MAX_SCAN_CALLS && names.size() <= maxQueues) {
            KeyScanCursor<String> page = Replies.await(redis.commands().scan(cursor, args), timeout);
            calls++;
            for (String key : page.getKeys()) {
                String name = key.substring(4, key.length() - 6);
                if (QueueName.isValid(name)) {
                    names.add(name);
                }
            }
            cursor = page;
        }
        List<String> sorted = new ArrayList<>(names);
        if (sorted.size() > maxQueues) {
            return new Listing(List.copyOf(sorted.subList(0, maxQueues)), true, "more than " + maxQueues + " queues found (DELAYQ_CONSOLE_MAX_QUEUES); "
                    + "the first " + maxQueues + " seen, by name, are shown");
        }
        if (!cursor.isFinished()) {
            return new Listing(sorted, true, "the search for queues stopped after " + calls + " SCAN calls (" + calls * 1000L
                    + " keys looked at) before the end of the key space");
        }
        return new Listing(sorted, false, null);
    }

    /** The client of a queue that exists in Redis; an unknown or malformed name answers 404 / 400. */
    public DelayQueueClient client(String queue) {
        if (!QueueName.isValid(queue)) {
            throw ApiException.badRequest("queue", "'" + queue + "' is not a queue name (lower-case DNS label, at most 40 characters)");
        }
        DelayQueueClient c = clients.get(queue);
        if (c != null) {
            return c;
        }
        if (!configured.isEmpty() && !configured.contains(queue)) {
            throw ApiException.notFound("queue", "no queue '" + queue + "' in this console (it shows " + String.join(", ", configured) + ")");
        }
        int n;
        try {
            n = RecordedLayout.read(redis, queue, timeout).orElseThrow(() -> ApiException.notFound("queue",
                    "no queue '" + queue + "' in Redis (no hash " + ShardKeys.meta(queue) + ")")).shards();
        } catch (DamagedMetaException e) {
            throw new ApiException(502, "queue", e.getMessage());
        }
        return clients.computeIfAbsent(queue, q -> DelayQueueClient.builder().redis(redis).queue(q).shards(n).timeout(timeout).build());
    }

    /**
     * The queue's layout as its meta hash records it now (shard count, and while a reshard runs the count it grows
     * from and the mover's progress). Reading it also brings the queue's client up to the current count, so that
     * stats and browsing cover the shards a grow added since the client was opened.
     */
    public Layout layout(String queue) {
        return Replies.await(client(queue).protocol().refreshLayout(), timeout);
    }

    @Override
    public void close() {
        clients.values().forEach(DelayQueueClient::close);
    }
}
