package io.delayq.layout;

import io.delayq.queue.QueueProtocol;
import io.delayq.redis.Replies;
import io.delayq.reshard.ReshardScripts;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a queue's meta hash records, read without creating anything. */
class RecordedLayoutTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final Duration T = Duration.ofSeconds(5);

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aQueueNoOneTouchedHasNoLayoutAndReadingCreatesNone() throws Exception {
        assertThat(RecordedLayout.read(redis.admin(), "untouched", T)).isEmpty();
        assertThat(redis.admin().commands().exists(ShardKeys.meta("untouched")).get()).isZero();
    }

    @Test
    void theCountTheProtocolAndARunningReshardAreRead() {
        try (TestQueue q = TestQueue.open(redis.url(), "grown", 4)) {
            Replies.await(q.protocol().verifyMeta(), T);
            RecordedLayout before = RecordedLayout.read(redis.admin(), "grown", T).orElseThrow();
            assertThat(before.shards()).isEqualTo(4);
            assertThat(before.protocol()).isEqualTo(QueueProtocol.PROTOCOL_VERSION);
            assertThat(before.layout().migrating()).isFalse();

            Replies.await(new ReshardScripts(q.protocol().scope()).reshardBegin(6), T);

            RecordedLayout during = RecordedLayout.read(redis.admin(), "grown", T).orElseThrow();
            assertThat(during.shards()).isEqualTo(6);
            assertThat(during.layout().migrating()).isTrue();
            assertThat(during.layout()).isEqualTo(Replies.await(q.protocol().refreshLayout(), T));
        }
    }

    @Test
    void aFieldThatIsNotANumberIsNamedWithItsValue() throws Exception {
        redis.admin().commands().hset(ShardKeys.meta("damaged"), "shards", "eight").get();

        assertThatThrownBy(() -> RecordedLayout.read(redis.admin(), "damaged", T))
                .isInstanceOf(DamagedMetaException.class)
                .hasMessage("dq:{damaged}:meta holds shards='eight', not a number; the queue's meta hash is damaged");
    }
}
