package io.delayq.reshard;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.testing.RedisClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The grow on a real three-primary Redis Cluster: old and new shards sit on different nodes and slots, every
 * script touches one slot (a CROSSSLOT error would fail it), and the load's ledger holds as on one server.
 */
class ClusterGrowTest {
    @RegisterExtension
    static RedisClusterExtension redis = new RedisClusterExtension(3);

    @Test
    void growsFourToSixteenUnderLoadOnACluster() throws Exception {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.endpoint()).queue("payouts").shards(4).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.endpoint()).queue("payouts").shards(4).build();
             LoadHarness load = new LoadHarness(producer, claimer, "payout-")) {
            load.preload(2000, 2000, 5000);
            load.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> load.acked.size() > 50);

            Mover.Result result = new Mover(Mover.Params.of(producer.protocol(), 16, p -> { }).withBatch(50)).run();
            assertThat(result.moved()).isGreaterThan(0);
            await().atMost(Duration.ofSeconds(10)).until(() -> !producer.protocol().layout().migrating()
                    && producer.protocol().layout().shards() == 16);
            load.stopProducing();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> load.missing().isEmpty());

            System.out.println("cluster grow 4 -> 16: " + load.summary() + "; mover: " + result);
            assertThat(load.violations).as(load.summary()).isEmpty();
            Layout after = io.delayq.redis.Replies.await(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(after.history()).containsExactly(4, 16);
        }
    }
}
