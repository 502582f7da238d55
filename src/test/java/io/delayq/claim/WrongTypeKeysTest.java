package io.delayq.claim;

import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Keys a producer overwrote with another type: a script's writes stay when a later call fails, so a claim
 * that fails must have written nothing, and an ack must not fail on bookkeeping it only cleans up.
 */
class WrongTypeKeysTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    private ShardKeys k() {
        return q.keys(0);
    }

    private Map<String, Object> snapshot() {
        return Map.of("due", q.zrange(k().due(0)).toString(), "attempts", get(q.redis().hgetall(k().attempts())).toString(),
                "records", String.valueOf(q.storedRecord("a")) + q.storedRecord("b"));
    }

    @Test
    void aClaimFailingOnAKeyOfTheWrongTypeMovesNothing() {
        q.client().enqueue(TaskSpec.of("a").payload("1"));
        get(q.redis().zadd(k().due(0), q.serverNow() - 5, "b")); // bare: the claim would give it a record
        Map<String, Object> before = snapshot();

        get(q.redis().hset(k().inflight(), "x", "y"));
        assertThatThrownBy(() -> q.claim(0, 10, LEASE)).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageContaining("WRONGTYPE");
        assertThat(snapshot()).as("batch claim").isEqualTo(before);
        get(q.redis().del(k().inflight()));

        get(q.redis().zrem(k().due(0), "b"));
        before = snapshot();
        get(q.redis().set(k().attempts(), "3"));
        assertThatThrownBy(() -> q.claim(0, 10, LEASE)).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageContaining("WRONGTYPE");
        assertThat(q.zrange(k().due(0)).toString()).as("a lone claim puts its task back").isEqualTo(before.get("due"));
        assertThat(get(q.redis().exists(k().inflight()))).isZero();
        get(q.redis().del(k().attempts()));

        assertThat(q.claim(0, 10, LEASE).tasks()).extracting(ClaimedTask::id).containsExactly("a");
    }

    @Test
    void anAckSucceedsWhenTheBookkeepingItCleansUpWasOverwritten() {
        q.client().enqueue(TaskSpec.of("a").payload("1"));
        q.client().enqueue(TaskSpec.of("b").payload("2"));
        List<ClaimedTask> claimed = q.claim(0, 10, LEASE).tasks();
        assertThat(claimed).hasSize(2);

        get(q.redis().set(k().record("a"), "not a hash any more"));
        get(q.redis().set(k().errors(), "not a hash either"));
        assertThat(q.ack(claimed.toArray(ClaimedTask[]::new))).containsExactly(true, true);
        assertThat(get(q.redis().zcard(k().inflight()))).isZero();
        assertThat(q.storedRecord("b")).as("the other record is deleted as usual").isNull();
    }
}
