package io.delayq.claim;

import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** Many workers, each on its own connection, claiming from one shard at once. */
class ConcurrentClaimTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final int CLAIMERS = 8;

    /** One delivery: which claim handed the task out, on the server clock. */
    record Delivery(String id, long claimedAt, long token, int attempt) {
    }

    private static List<String> enqueue(TestQueue q, int n) {
        List<TaskSpec> specs = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("task-" + i);
            specs.add(TaskSpec.of("task-" + i).payload("p" + i));
        }
        q.client().enqueueAll(specs);
        return ids;
    }

    @Test
    void concurrentClaimersNeverReceiveTheSameTaskWhileItsLeaseIsValid() throws Exception {
        int n = 6_000;
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 1)) {
            List<String> ids = enqueue(q, n);
            Map<String, List<Integer>> deliveredTo = new ConcurrentHashMap<>();
            ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int c = 0; c < CLAIMERS; c++) {
                    int claimer = c;
                    results.add(pool.submit(() -> {
                        try (RedisEndpoint own = RedisEndpoint.connect(redis.url())) {
                            QueueProtocol p = new QueueProtocol(own, "orders", 1);
                            sync(p.verifyMeta());   // as a worker starts: the queue's meta says which protocol it speaks
                            int got = 0;
                            while (true) {
                                ClaimBatch b = sync(p.claim(0, 7, Duration.ofMinutes(5), RateLimit.NONE));
                                if (b.tasks().isEmpty()) {
                                    return got;
                                }
                                for (ClaimedTask t : b.tasks()) {
                                    deliveredTo.computeIfAbsent(t.id(), k -> new CopyOnWriteArrayList<>()).add(claimer);
                                }
                                got += b.tasks().size();
                                if (got % 2 == 0) {      // ack some as we go, leave others in flight
                                    assertThat(sync(p.ack(0, b.tasks()))).containsOnly(true);
                                }
                            }
                        }
                    }));
                }
                int total = 0;
                int busy = 0;
                for (Future<Integer> f : results) {
                    int got = f.get(60, TimeUnit.SECONDS);
                    total += got;
                    busy += got > 0 ? 1 : 0;
                }
                assertThat(busy).as("claimers that got work").isGreaterThan(1);
                assertThat(total).isEqualTo(n);
            } finally {
                pool.shutdownNow();
            }
            assertThat(deliveredTo.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(deliveredTo.values()).allSatisfy(to -> assertThat(to).hasSize(1));
            assertThat(q.client().stats().due()).isZero();
        }
    }

    @Test
    void redeliveryHappensOnlyAfterTheLeaseExpired() throws Exception {
        int n = 1_500;
        Duration lease = Duration.ofMillis(150);
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 1)) {
            enqueue(q, n);
            Map<String, List<Delivery>> deliveries = new ConcurrentHashMap<>();
            Map<String, Boolean> acked = new ConcurrentHashMap<>();
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
            try {
                List<Future<?>> workers = new ArrayList<>();
                for (int c = 0; c < CLAIMERS; c++) {
                    workers.add(pool.submit(() -> {
                        try (RedisEndpoint own = RedisEndpoint.connect(redis.url())) {
                            QueueProtocol p = new QueueProtocol(own, "orders", 1);
                            sync(p.verifyMeta());   // as a worker starts: the queue's meta says which protocol it speaks
                            while (!done.get()) {
                                ClaimBatch b = sync(p.claim(0, 5, lease, RateLimit.NONE));
                                if (b.tasks().isEmpty()) {
                                    // idle: sweep expired leases, as a worker does between claims
                                    sync(p.reclaim(0, 100, 0, DeadLetterPolicy.DEFAULT));
                                }
                                List<ClaimedTask> finished = new ArrayList<>();
                                for (ClaimedTask t : b.tasks()) {
                                    deliveries.computeIfAbsent(t.id(), k -> new CopyOnWriteArrayList<>())
                                            .add(new Delivery(t.id(), b.serverNow(), t.token(), t.attempt()));
                                    // a worker that "stalls" on every third first attempt: its lease runs out
                                    if (!(t.attempt() == 1 && Math.floorMod(t.id().hashCode(), 3) == 0)) {
                                        finished.add(t);
                                    }
                                }
                                if (!finished.isEmpty()) {
                                    List<Boolean> ok = sync(p.ack(0, finished));
                                    for (int i = 0; i < finished.size(); i++) {
                                        if (ok.get(i)) {
                                            assertThat(acked.put(finished.get(i).id(), true)).as("acked twice").isNull();
                                        }
                                    }
                                }
                                if (acked.size() == n) {
                                    done.set(true);
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : workers) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                done.set(true);
                pool.shutdownNow();
            }
            assertThat(acked).hasSize(n);
            long redelivered = deliveries.values().stream().filter(d -> d.size() > 1).count();
            assertThat(redelivered).as("tasks whose lease ran out were handed out again").isGreaterThan(n / 5);
            for (List<Delivery> d : deliveries.values()) {
                List<Delivery> sorted = d.stream().sorted(java.util.Comparator.comparingInt(Delivery::attempt)).toList();
                for (int i = 1; i < sorted.size(); i++) {
                    Delivery earlier = sorted.get(i - 1);
                    Delivery later = sorted.get(i);
                    assertThat(later.attempt()).isEqualTo(earlier.attempt() + 1);
                    assertThat(later.claimedAt()).as("%s handed out again before its lease ended", later.id())
                            .isGreaterThanOrEqualTo(earlier.token());
                }
            }
        }
    }
}
