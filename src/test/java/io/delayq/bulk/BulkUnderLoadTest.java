package io.delayq.bulk;

import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bulk cancel while a worker's claim loop fires tasks and a producer keeps adding tasks that match the filter:
 * an independent recorder (the ids each claim answered, the ids each batch reported cancelled) finds no task both
 * fired and cancelled, and every task added either fired or was cancelled.
 */
class BulkUnderLoadTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "load", 4);

    @Test
    void noTaskIsBothFiredAndCancelled() throws Exception {
        Set<String> added = ConcurrentHashMap.newKeySet();
        Set<String> fired = ConcurrentHashMap.newKeySet();
        Set<String> cancelled = ConcurrentHashMap.newKeySet();
        AtomicLong firedTwice = new AtomicLong();
        List<TaskSpec> preload = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            preload.add(TaskSpec.of("load-" + i).after(Duration.ofMillis(ThreadLocalRandom.current().nextInt(0, 3000))));
        }
        preload.forEach(t -> added.add(t.id()));
        for (int i = 0; i < preload.size(); i += 500) {
            q.client().enqueueAll(preload.subList(i, i + 500));
        }
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicBoolean claiming = new AtomicBoolean(true);
        try (TestQueue producerSide = TestQueue.open(redis.url(), "load", 4); TestQueue workerSide = TestQueue.open(redis.url(), "load", 4)) {
            Thread producer = new Thread(() -> {
                long n = 100_000;
                while (producing.get()) {
                    String id = "load-" + n++;
                    added.add(id);
                    producerSide.client().enqueue(TaskSpec.of(id).after(Duration.ofMillis(ThreadLocalRandom.current().nextInt(0, 500))));
                }
            }, "producer");
            Thread worker = new Thread(() -> {
                while (claiming.get()) {
                    for (int shard = 0; shard < 4; shard++) {
                        List<ClaimedTask> got = sync(workerSide.protocol().claim(shard, 50, Duration.ofSeconds(30), RateLimit.NONE)).tasks();
                        for (ClaimedTask t : got) {
                            if (!fired.add(t.id())) {
                                firedTwice.incrementAndGet();
                            }
                        }
                        if (!got.isEmpty()) {
                            sync(workerSide.protocol().ack(shard, got));
                        }
                    }
                }
            }, "worker");
            producer.start();
            worker.start();
            BulkActions bulk = new BulkActions(q.protocol().scope(), TestQueue.WAIT);
            BulkJob job = bulk.start(BulkFilter.ALL.prefix("load-"), BulkAction.cancel(), "test");
            BulkJob done = bulk.run(job.id(), BulkRun.defaults().batch(20).pause(Duration.ofMillis(1)).onActed(cancelled::addAll));
            producing.set(false);
            producer.join();
            assertThat(done.status()).isEqualTo(BulkJob.Status.DONE);
            assertThat(done.done()).isEqualTo(cancelled.size());
            // the worker fires what the bulk run did not reach
            Awaitility.await().atMost(TestQueue.WAIT).until(() -> fired.size() + cancelled.size() >= added.size());
            claiming.set(false);
            worker.join();
        }
        Set<String> both = new HashSet<>(fired);
        both.retainAll(cancelled);
        assertThat(both).as("fired and cancelled").isEmpty();
        assertThat(firedTwice.get()).isZero();
        Set<String> accounted = new HashSet<>(fired);
        accounted.addAll(cancelled);
        assertThat(accounted).isEqualTo(added);
        assertThat(cancelled).as("the bulk run cancelled some").isNotEmpty();
        assertThat(fired).as("the worker fired some while it ran").isNotEmpty();
    }
}
