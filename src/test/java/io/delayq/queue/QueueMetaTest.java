package io.delayq.queue;

import io.delayq.client.DelayQueueClient;
import io.delayq.reshard.Mover;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static io.delayq.testing.TestQueue.get;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The meta hash makes a producer with the wrong shard count or protocol fail instead of writing where no worker looks. */
class QueueMetaTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void firstUseRecordsShardCountAndProtocol() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 16)) {
            assertThat(get(q.redis().hgetall("dq:{orders}:meta"))).isEqualTo(Map.of("shards", "16", "protocol", "3"));
            // a second client with the same count is fine and changes nothing
            try (DelayQueueClient again = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(16).build()) {
                assertThat(again.enqueue(TaskSpec.of("a")).added()).isTrue();
            }
        }
    }

    @Test
    void protocol2IsRecordedOnlyWhereAskedForAndAnythingElseIsRefusedNamingTheSwitch() {
        try (TestQueue q = NewQueuesOnProtocol3.creating(2, () -> TestQueue.open(redis.url(), "legacy", 4))) {
            assertThat(get(q.redis().hget("dq:{legacy}:meta", "protocol"))).isEqualTo("2");
        }
        assertThatThrownBy(() -> NewQueuesOnProtocol3.creating(4, QueueProtocol::protocolForNewQueues))
                .isInstanceOf(io.delayq.InvalidInputException.class)
                .hasMessageContaining("DELAYQ_PROTOCOL")
                .hasMessageContaining("must be 2 or 3, got '4'");
    }

    @Test
    void shardCountMismatchIsRefusedWithAClearMessage() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 16)) {
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(8).build())
                    .isInstanceOf(ShardCountMismatchException.class)
                    .hasMessage("shards: queue 'orders' has 16 shards in Redis (dq:{orders}:meta) and never had 8, the count "
                            + "this client is configured with; use 16 (or a count the queue had before a reshard): the client "
                            + "reads the queue's layout from Redis and follows it, and the count changes only through a reshard "
                            + "(delayq reshard orders --to N)");
            assertThat(q.allKeys()).containsExactly(ShardKeys.meta("orders"));
            assertThat(get(q.redis().hget("dq:{orders}:meta", "shards"))).isEqualTo("16");
        }
    }

    @Test
    void afterAReshardTheOldCountIsFollowedAndOneNeverHadIsRefusedNamingTheCurrentCount() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 4)) {
            new Mover(Mover.Params.of(q.protocol(), 6, p -> { })).run();

            try (DelayQueueClient old = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build()) {
                assertThat(old.async().shards()).isEqualTo(6);
            }
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(5).build())
                    .isInstanceOf(ShardCountMismatchException.class)
                    .hasMessageStartingWith("shards: queue 'orders' has 6 shards in Redis (dq:{orders}:meta) and never had 5, ")
                    .hasMessageContaining("use 6 (or a count the queue had before a reshard)")
                    .hasMessageEndingWith("the count changes only through a reshard (delayq reshard orders --to N)");
        }
    }

    @Test
    void shardCountMismatchIsRefusedOnTheProtocolToo() {
        try (TestQueue q = TestQueue.open(redis.url(), "orders", 4)) {
            QueueProtocol wrong = new QueueProtocol(q.client().redis(), "orders", 5);
            assertThatThrownBy(() -> TestQueue.sync(wrong.verifyMeta())).isInstanceOf(ShardCountMismatchException.class);
        }
    }

    @Test
    void metaWrittenByHandIsHonoured() {
        try (TestQueue admin = TestQueue.open(redis.url(), "other", 1)) {
            get(admin.redis().hset("dq:{orders}:meta", Map.of("shards", "32", "protocol", "3")));
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(16).build())
                    .isInstanceOf(ShardCountMismatchException.class).hasMessageContaining("has 32 shards");
            try (DelayQueueClient ok = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(32).build()) {
                assertThat(ok.stats().shards()).hasSize(32);
            }
        }
    }

    @Test
    void aVersion1QueueIsRefusedNamingTheVersionANewQueueGets() {
        try (TestQueue admin = TestQueue.open(redis.url(), "other", 1)) {
            get(admin.redis().hset("dq:{orders}:meta", Map.of("shards", "4", "protocol", "1")));
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build())
                    .isInstanceOf(ProtocolVersionMismatchException.class)
                    .hasMessageStartingWith("protocol: queue 'orders' uses delayq protocol version 1 in Redis, this client speaks version 3; ")
                    .hasMessageContaining("every producer and worker of a queue must speak the same one");
            // a meta hash without a protocol field (written by hand, incompletely) is not silently accepted
            get(admin.redis().hdel("dq:{orders}:meta", "protocol"));
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build())
                    .isInstanceOf(ProtocolVersionMismatchException.class).hasMessageContaining("version 0");
        }
    }
}
