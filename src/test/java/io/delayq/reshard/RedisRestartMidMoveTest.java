package io.delayq.reshard;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis killed (SIGKILL) and restarted from its AOF in the middle of a 4 -> 16 move, with tasks coming due and a
 * claimer acking them meanwhile: the mover resumes (its calls re-sent after the reconnect, or a new run under the same
 * lease holder) and finishes; nothing is lost, nothing fires early, a task is delivered twice only with attempt > 1,
 * and every waiting task sits on its new shard exactly once. With appendfsync everysec, Redis may lose the last
 * second of writes; the AOF is still a prefix of what ran, so the move's own state stays consistent (checked on the
 * far-future tasks, which nothing else touches), while the claimer's judgement needs always.
 */
class RedisRestartMidMoveTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 4;
    private static final int TO = 16;

    @ParameterizedTest(name = "appendfsync {0}")
    @ValueSource(strings = {"always", "everysec"})
    void aRedisRestartMidMoveLosesNothing(String appendfsync) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (LocalRedisServer redis = LocalRedisServer.start("--appendonly", "yes", "--appendfsync", appendfsync);
             DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build();
             DelayQueueClient moverClient = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build();
             LoadHarness load = new LoadHarness(producer, claimer, "order-")) {
            load.preload(3000, 2000, 12_000);
            List<String> far = new ArrayList<>();
            List<TaskSpec> farTasks = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                far.add("far-" + i);
                farTasks.add(TaskSpec.of("far-" + i).after(Duration.ofHours(1)).payload("f" + i));
            }
            for (int i = 0; i < farTasks.size(); i += 500) {
                producer.enqueueAll(farTasks.subList(i, i + 500));
            }
            boolean strict = appendfsync.equals("always");
            if (strict) {
                load.startClaimerThroughOutages();
            }

            AtomicLong moved = new AtomicLong();
            AtomicInteger runs = new AtomicInteger();
            Mover.Params params = Mover.Params.of(moverClient.protocol(), TO, p -> moved.set(p.moved())).withBatch(10)
                    .withHolder("restart-test mover").withLease(Duration.ofSeconds(15));
            Future<Mover.Result> mover = pool.submit(() -> {
                while (true) {
                    runs.incrementAndGet();
                    try {
                        return new Mover(params).run();
                    } catch (RuntimeException e) {
                        // a call that failed across the restart: run again, as the operator or a person would (same holder)
                        System.out.println("mover run " + runs.get() + " stopped: " + e);
                        Thread.sleep(200);
                    }
                }
            });
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> moved.get() > 800);
            redis.restart(); // SIGKILL, then the same port, arguments and AOF; returns once PING answers
            long movedAtRestart = moved.get();

            Mover.Result result = mover.get(120, TimeUnit.SECONDS);
            assertThat(result.to()).isEqualTo(TO);
            assertThat(movedAtRestart).as("the restart came mid-move").isLessThan(3000);
            Layout after = io.delayq.redis.Replies.await(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(after.migrating()).isFalse();
            assertThat(after.history()).containsExactly(FROM, TO);

            // every far-future task exactly once, on its new shard, with its record
            try (io.delayq.redis.RedisEndpoint raw = io.delayq.redis.RedisEndpoint.connect(redis.url())) {
                io.delayq.testing.TestQueue view = io.delayq.testing.TestQueue.reading(producer, raw);
                List<java.util.Set<String>> waitingOn = new ArrayList<>();
                for (int s = 0; s < TO; s++) {
                    waitingOn.add(view.waiting(s).keySet());
                }
                for (String id : far) {
                    int home = Sharding.shardOf(id, TO);
                    for (int s = 0; s < TO; s++) {
                        assertThat(waitingOn.get(s).contains(id)).as(id + " on shard " + s).isEqualTo(s == home);
                    }
                }
            }
            assertThat(producer.inspect("far-7").rawRecord()).endsWith(":f7");
            for (int s = 0; s < FROM; s++) {
                assertThat(io.delayq.redis.Replies.await(producer.redis().commands().exists(new ShardKeys("orders", s).moving()),
                        Duration.ofSeconds(5))).isZero();
            }

            if (strict) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    load.countGoneAsAcked();
                    return load.missing().isEmpty();
                });
                System.out.println("redis restart mid-move (appendfsync " + appendfsync + "): " + load.summary() + "; mover runs "
                        + runs.get() + ", moved at restart " + movedAtRestart + ", " + result + ", claimer errors " + load.outageErrors);
                assertThat(load.violations).as(load.summary()).isEmpty();
            } else {
                // nothing waiting was claimed: every preloaded task is still there, on its new shard
                for (String id : load.added) {
                    assertThat(producer.inspect(id).shard()).as(id).isEqualTo(Sharding.shardOf(id, TO));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
