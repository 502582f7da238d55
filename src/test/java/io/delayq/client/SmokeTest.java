package io.delayq.client;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.RateLimit;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SmokeTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void enqueueClaimAck() {
        try (DelayQueueClient c = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(1).build()) {
            assertThat(c.enqueue(TaskSpec.of("a").payload("hello")).status()).isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(c.enqueue(TaskSpec.of("a")).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
            ClaimBatch b = DelayQueueClient.awaitStage(c.protocol().claim(0, 10, Duration.ofSeconds(30), RateLimit.NONE), Duration.ofSeconds(5));
            assertThat(b.tasks()).hasSize(1);
            assertThat(b.tasks().get(0).rawRecord()).contains("hello");
            assertThat(b.tasks().get(0).attempt()).isEqualTo(1);
            List<Boolean> acked = DelayQueueClient.awaitStage(c.protocol().ack(0, b.tasks()), Duration.ofSeconds(5));
            assertThat(acked).containsExactly(true);
            assertThat(c.stats().inflight()).isZero();
            DeadLetterPolicy p = DeadLetterPolicy.DEFAULT;
            assertThat(p.maxCount()).isPositive();
        }
    }
}
