package io.delayq.bench;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling, not a peer: the smallest at-least-once design on the same Redis. Per shard a due ZSET,
 * an in-flight ZSET scored by lease expiry and one record hash; one claim script per batch (TIME, ZRANGEBYSCORE …
 * LIMIT, ZREM, ZADD to in-flight, HMGET of the records; the lease token is the score) and one asynchronous ack
 * script per claim (ZMSCORE for the token, ZREM + HDEL of the ids that still hold it). No retries, attempts, dead
 * letters, wake-ups, priorities, rate limits, replay keys or metrics: what delayq adds costs beyond this.
 * Consumers poll every 10 ms when nothing is due. Its own keys and enqueue; the producer connection and the
 * consumer threads are {@link ClassicZset}'s.
 */
final class CeilingContender extends ClassicZset {
    static final int SHARDS = 8;
    static final int CONSUMERS = 2;
    static final int BATCH = 1000;
    static final long LEASE_MS = 30_000;
    static final String CLAIM = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
            if #ids == 0 then return {} end
            local token = now + tonumber(ARGV[2])
            redis.call('ZREM', KEYS[1], unpack(ids))
            local pairs_ = {}
            for i = 1, #ids do pairs_[2 * i - 1] = token; pairs_[2 * i] = ids[i] end
            redis.call('ZADD', KEYS[2], unpack(pairs_))
            local records = redis.call('HMGET', KEYS[3], unpack(ids))
            local out = { tostring(token) }
            for i = 1, #ids do out[#out + 1] = ids[i]; out[#out + 1] = records[i] or '' end
            return out
            """;
    static final String ACK = """
            local scores = redis.call('ZMSCORE', KEYS[1], unpack(ARGV, 2))
            local mine = {}
            for i = 1, #scores do
              if scores[i] and tonumber(scores[i]) == tonumber(ARGV[1]) then mine[#mine + 1] = ARGV[i + 1] end
            end
            if #mine > 0 then
              redis.call('ZREM', KEYS[1], unpack(mine))
              redis.call('HDEL', KEYS[2], unpack(mine))
            end
            return #mine
            """;
    static final String ENQUEUE = """
            redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
            return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
            """;

    private final String enqueueSha;

    CeilingContender(Workbench bench) {
        super(bench);
        this.enqueueSha = producer.sync().scriptLoad(ENQUEUE);
    }

    static String due(int shard) {
        return "ceil:{" + shard + "}:due";
    }

    static String inflight(int shard) {
        return "ceil:{" + shard + "}:inflight";
    }

    static String records(int shard) {
        return "ceil:{" + shard + "}:tasks";
    }

    static int shardOf(int index) {
        return index % SHARDS;
    }

    @Override
    public void enqueueDue(int n, long dueMillis) throws Exception {
        store(n, "", dueMillis);
    }

    @Override
    public void enqueueWaiting(int n, String payload, long dueMillis) throws Exception {
        store(n, payload, dueMillis);
    }

    /** Per shard a ZADD and an HSET of 1,000 members, pipelined (8 in flight). */
    private void store(int n, String payload, long dueMillis) throws Exception {
        RedisAsyncCommands<String, String> redis = producer.async();
        Deque<RedisFuture<Long>> inFlight = new ArrayDeque<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            List<Object> members = new ArrayList<>();
            Map<String, String> rec = new HashMap<>();
            for (int i = shard; i < n; i += SHARDS) {
                String id = TaskIds.id(i);
                members.add((double) dueMillis);
                members.add(id);
                rec.put(id, payload);
                if (rec.size() == 1000 || i + SHARDS >= n) {
                    inFlight.add(redis.hset(records(shard), rec));
                    inFlight.add(redis.zadd(due(shard), members.toArray()));
                    members = new ArrayList<>();
                    rec = new HashMap<>();
                    while (inFlight.size() >= 16) {
                        inFlight.poll().get(60, TimeUnit.SECONDS);
                    }
                }
            }
        }
        while (!inFlight.isEmpty()) {
            inFlight.poll().get(60, TimeUnit.SECONDS);
        }
    }

    @Override
    public void enqueueOne(int index, long dueMillis) {
        int shard = shardOf(index);
        producer.sync().evalsha(enqueueSha, ScriptOutputType.INTEGER, new String[] {due(shard), records(shard)},
                String.valueOf(dueMillis), TaskIds.id(index), "");
    }

    @Override
    public void startConsumers(Recorder recorder) {
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        startThreads(CONSUMERS, "ceiling", connection -> consume(connection, next.getAndIncrement(), recorder));
    }

    /** One consumer owns every CONSUMERS-th shard: claim each in turn, ack asynchronously after handling. */
    private void consume(StatefulRedisConnection<String, String> connection, int first, Recorder recorder) {
        String claim = connection.sync().scriptLoad(CLAIM);
        String ack = connection.sync().scriptLoad(ACK);
        while (running) {
            boolean any = false;
            for (int shard = first; shard < SHARDS; shard += CONSUMERS) {
                List<String> got = connection.sync().evalsha(claim, ScriptOutputType.MULTI, new String[] {due(shard), inflight(shard), records(shard)},
                        String.valueOf(BATCH), String.valueOf(LEASE_MS));
                if (got.isEmpty()) {
                    continue;
                }
                any = true;
                String[] args = new String[1 + (got.size() - 1) / 2];
                args[0] = got.get(0);
                for (int i = 1, k = 1; i < got.size(); i += 2, k++) {
                    args[k] = got.get(i);
                    recorder.handled(TaskIds.index(got.get(i)));
                }
                connection.async().evalsha(ack, ScriptOutputType.INTEGER, new String[] {inflight(shard), records(shard)}, args);
            }
            if (!any) {
                Pause.millis(10);
            }
        }
    }

    @Override
    public boolean settled() {
        for (int s = 0; s < SHARDS; s++) {
            if (producer.sync().zcard(inflight(s)) > 0) {
                return false;
            }
        }
        return true;
    }
}
