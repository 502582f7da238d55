package io.delayq.reshard;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue grown while producers enqueue, a claimer claims, acks and retries, and other threads cancel and
 * reschedule by id: nothing lost, nothing early, a second delivery only with attempt > 1, no task fires after
 * its cancel succeeded, and afterwards every task sits on its shard of the new layout.
 */
class GrowUnderLoadTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"4, 16", "6, 16", "16, 64"})
    void growsWithoutLosingDuplicatingOrFiringEarly(int from, int to) throws Exception {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(from).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(from).build();
             LoadHarness load = new LoadHarness(producer, claimer, "order-")) {
            load.preload(4000, 2000, 6000);
            load.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> load.acked.size() > 100);

            List<Mover.Progress> seen = new ArrayList<>();
            Mover.Result result = new Mover(Mover.Params.of(producer.protocol(), to, seen::add).withBatch(50)).run();

            assertThat(result.from()).isEqualTo(from);
            assertThat(result.moved()).isGreaterThan(0);
            assertThat(seen).extracting(Mover.Progress::phase).contains("moving", "done");
            // the producer follows the new layout without a restart: its next writes land on shards >= from
            await().atMost(Duration.ofSeconds(10)).until(() -> producer.protocol().layout().shards() == to
                    && !producer.protocol().layout().migrating());
            load.stopProducing();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> load.missing().isEmpty());

            System.out.println("grow " + from + " -> " + to + ": " + load.summary() + "; mover: " + result);
            assertThat(load.violations).as(load.summary()).isEmpty();
            assertThat(load.cancels.get()).as(load.summary()).isGreaterThan(0);
            assertThat(load.reschedules.get()).as(load.summary()).isGreaterThan(0);
            Layout after = io.delayq.redis.Replies.await(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(after.history()).containsExactly(from, to);
            assertThat(after.epoch()).isEqualTo(2);
            assertThat(after.migrating()).isFalse();
        }
    }
}
