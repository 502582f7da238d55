package io.delayq.claim;

import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A shard's rate limit inside the claim (protocol 2's claim.lua and protocol 3's p3/claim.lua): the token bucket. */
class ClaimRateLimitTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    private static Instant ago(long seconds) {
        return Instant.now().minusSeconds(seconds);
    }

    @ParameterizedTest(name = "protocol {0}")
    @ValueSource(ints = {2, 3})
    void rateLimitBoundsClaimsByTheTokenBucket(int protocol) {
        try (TestQueue q = NewQueuesOnProtocol3.creating(protocol, () -> TestQueue.open(redis.url(), "limited" + protocol, 1))) {
            assertThat(q.protocol().buckets() != null).as("on protocol " + protocol).isEqualTo(protocol == 3);
            boundedByTheTokenBucket(q);
        }
    }

    private static void boundedByTheTokenBucket(TestQueue q) {
        int tasks = 12;
        // one due time: on protocol 3 the tasks then share one window's bucket, which a claim splits to the burst
        // (due times read one by one could straddle a window's end, and a claim splits only its first bucket)
        Instant due = ago(10);
        for (int i = 0; i < tasks; i++) {
            q.client().enqueue(TaskSpec.of("t" + i).at(due));
        }
        RateLimit limit = new RateLimit(10, 3);      // one shard: 10 per second, burst of 3
        ClaimBatch burst = sync(q.protocol().claim(0, 100, LEASE, limit));
        assertThat(burst.tasks()).hasSize(3);
        long start = burst.serverNow();

        ClaimBatch throttled = sync(q.protocol().claim(0, 100, LEASE, limit));
        if (throttled.tasks().isEmpty()) {
            // rate limited: the next due time tells the worker when a token will be there
            assertThat(throttled.nextDueAt()).isBetween(throttled.serverNow() + 1, throttled.serverNow() + 100);
        }
        List<ClaimedTask> got = new ArrayList<>(burst.tasks());
        got.addAll(throttled.tasks());
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            ClaimBatch b = sync(q.protocol().claim(0, 100, LEASE, limit));
            got.addAll(b.tasks());
            // never more than the burst plus what the rate refilled since the first claim
            long allowed = 3 + (long) Math.floor((b.serverNow() - start) * 10 / 1000.0);
            assertThat((long) got.size()).isLessThanOrEqualTo(allowed);
            return got.size() == tasks;
        });
        // without a limit, everything due at once is claimable
        q.client().enqueue(TaskSpec.of("x1"));
        q.client().enqueue(TaskSpec.of("x2"));
        assertThat(q.claim(0, 100, LEASE).tasks()).hasSize(2);
    }
}
