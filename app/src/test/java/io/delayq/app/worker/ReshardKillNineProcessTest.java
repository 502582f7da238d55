package io.delayq.app.worker;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.reshard.LoadHarness;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * `delayq reshard` as its own JVM, killed with SIGKILL in the middle of the move while producers, a claimer,
 * cancels and reschedules go on; a second run resumes from what Redis holds (the meta hash and the old
 * shards' `moving` batches) and finishes: nothing lost, nothing early, no repeat with attempt 1. A run started while the
 * killed one's lease still runs is refused with the holder's name; the one after the lease ran out takes over.
 */
class ReshardKillNineProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aKilledMoverIsResumedByTheNextRunAndNothingIsLost() throws Exception {
        Map<String, String> env = Map.of("DELAYQ_REDIS_URL", redis.url());
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             LoadHarness load = new LoadHarness(producer, claimer, "order-")) {
            load.preload(30_000, 20_000, 40_000);
            load.start();
            long firstPid;
            try (WorkerProcess first = WorkerProcess.start(env, List.of("reshard", "orders", "--to", "16", "--batch", "5", "--lease", "15s"))) {
                firstPid = first.pid();
                // mid-way: the migration is recorded and some tasks already sit on shards the old layout did not have
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> movedSoFar(producer) > 2000);
                first.kill9();
                assertThat(first.output()).contains("moving");
            }
            Layout stopped = io.delayq.redis.Replies.await(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(stopped.migrating()).as("killed before the end").isTrue();

            // at once: the killed run's lease still runs, so a second mover is refused, naming the holder
            try (WorkerProcess second = WorkerProcess.start(env, List.of("reshard", "orders", "--to", "16"))) {
                assertThat(second.waitFor(Duration.ofSeconds(60))).as(second.output()).isEqualTo(2);
                assertThat(second.output()).contains("a migration from 4 to 16 shards is running: queue 'orders' is being resharded by ",
                        " pid " + firstPid + " #", "run this again after its lease ran out");
            }
            // the killed run renews no more: once its lease ran out, the next run takes over and finishes
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> leaseRanOut(producer));
            try (WorkerProcess third = WorkerProcess.start(env, List.of("reshard", "orders", "--to", "16"))) {
                assertThat(third.waitFor(Duration.ofSeconds(120))).as(third.output()).isZero();
                assertThat(third.output()).contains("resumed and finished: queue 'orders' now has 16 shards (was 4)");
            }
            assertThat(io.delayq.redis.Replies.await(producer.redis().commands().hget(ShardKeys.meta("orders"), "mover"), Duration.ofSeconds(5)))
                    .as("the finished run gave its lease back").isNull();
            load.stopProducing();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> load.missing().isEmpty());
            System.out.println("reshard kill -9 and resume: " + load.summary());
            assertThat(load.violations).as(load.summary()).isEmpty();
            Layout after = io.delayq.redis.Replies.await(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(after.migrating()).isFalse();
            assertThat(after.history()).containsExactly(4, 16);
        }
    }

    /** The meta's lease field names an expiry (server ms) that has passed. */
    private static boolean leaseRanOut(DelayQueueClient c) {
        String lease = io.delayq.redis.Replies.await(c.redis().commands().hget(ShardKeys.meta("orders"), "mover"), Duration.ofSeconds(5));
        List<String> t = io.delayq.redis.Replies.await(c.redis().commands().time(), Duration.ofSeconds(5));
        long now = Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        return lease == null || Long.parseLong(lease.substring(0, lease.indexOf(' '))) < now;
    }

    /** The tasks the mover has moved so far, as it records them in the meta (either protocol). */
    private static long movedSoFar(DelayQueueClient c) {
        String moved = io.delayq.redis.Replies.await(c.redis().commands().hget(ShardKeys.meta("orders"), "moved"), Duration.ofSeconds(5));
        return moved == null ? 0 : Long.parseLong(moved.trim());
    }
}
