package io.delayq.task;

import io.delayq.InvalidInputException;
import io.delayq.claim.ClaimedTask;
import io.delayq.task.EnqueueResult.Status;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The DEBOUNCE policy: replace and push the due time, never past the burst's first enqueue + max wait. */
class DebounceTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "search", 1);

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private EnqueueResult debounce(String payload, Duration delay, Duration maxWait) {
        return q.client().enqueue(TaskSpec.of("reindex-7").payload(payload).debounce(delay, maxWait), DuplicatePolicy.DEBOUNCE);
    }

    private long due() {
        return q.waiting().get("reindex-7");
    }

    @Test
    void eachEnqueueReplacesAndPushesTheDueTimeUntilTheDeadlineCapsIt() {
        long before = q.serverNow();
        EnqueueResult first = debounce("v1", MINUTE, Duration.ofMinutes(5));
        long after = q.serverNow();
        assertThat(first.status()).isEqualTo(Status.ADDED);
        assertThat(first.dueAt()).isBetween(before + MINUTE.toMillis(), after + MINUTE.toMillis());
        TaskRecord stored = TaskRecord.decode(q.client().inspect("reindex-7").rawRecord());
        long deadline = stored.options().debounceDeadline();
        assertThat(deadline).isBetween(before + Duration.ofMinutes(5).toMillis(), after + Duration.ofMinutes(5).toMillis());

        EnqueueResult second = debounce("v2", Duration.ofMinutes(2), Duration.ofMinutes(5));
        assertThat(second.status()).isEqualTo(Status.REPLACED);
        assertThat(second.dueAt()).isGreaterThan(first.dueAt());
        assertThat(due()).isEqualTo(second.dueAt());
        // the deadline is the burst's first: a later enqueue does not move it
        assertThat(TaskRecord.decode(q.client().inspect("reindex-7").rawRecord()).options().debounceDeadline()).isEqualTo(deadline);
        assertThat(TaskRecord.decode(q.client().inspect("reindex-7").rawRecord()).payload()).isEqualTo("v2");

        // a delay beyond the deadline is capped at it (and a longer max wait in the new call does not extend it)
        EnqueueResult capped = debounce("v3", Duration.ofMinutes(20), Duration.ofMinutes(30));
        assertThat(capped).isEqualTo(new EnqueueResult("reindex-7", Status.REPLACED, deadline));
        assertThat(due()).isEqualTo(deadline);
        assertThat(q.waiting()).hasSize(1);
    }

    @Test
    void theTaskFiresOnceWithTheLastPayloadAndAnInFlightOneIsRefused() {
        debounce("v1", Duration.ofMillis(200), Duration.ofMillis(400));
        debounce("v2", Duration.ofMillis(200), Duration.ofMillis(400));
        debounce("v3", Duration.ofMillis(200), Duration.ofMillis(400));
        ClaimedTask fired = await().atMost(TestQueue.WAIT).until(() -> {
            List<ClaimedTask> got = q.claim(0, 10, MINUTE).tasks();
            return got.isEmpty() ? null : got.get(0);
        }, t -> t != null);
        assertThat(TaskRecord.decode(fired.rawRecord()).payload()).isEqualTo("v3");
        assertThat(q.claim(0, 10, MINUTE).tasks()).isEmpty();

        long before = q.serverNow();
        EnqueueResult refused = debounce("v4", MINUTE, Duration.ofMinutes(5));
        assertThat(refused.status()).isEqualTo(Status.INFLIGHT);
        assertThat(refused.dueAt()).isEqualTo(fired.token());
        assertThat(TaskRecord.decode(q.client().inspect("reindex-7").rawRecord()).payload()).isEqualTo("v3");
        assertThat(q.ack(fired)).containsExactly(true);
        // after the ack a new burst starts
        assertThat(debounce("v5", MINUTE, Duration.ofMinutes(5)).status()).isEqualTo(Status.ADDED);
        assertThat(TaskRecord.decode(q.client().inspect("reindex-7").rawRecord()).options().debounceDeadline()).isGreaterThanOrEqualTo(before + Duration.ofMinutes(5).toMillis());
    }

    @Test
    void debounceAndAWindowTogether() {
        EnqueueResult r = q.client().enqueue(TaskSpec.of("reindex-7").payload("v1").debounce(MINUTE, Duration.ofMinutes(5))
                .dedupWindow(Duration.ofHours(1)), DuplicatePolicy.DEBOUNCE);
        assertThat(r.status()).isEqualTo(Status.ADDED);
        q.client().cancel("reindex-7");
        assertThat(debounce("v2", MINUTE, Duration.ofMinutes(5)).status()).isEqualTo(Status.WINDOW);
    }

    @Test
    void badInputNamesTheFieldAndTheRule() {
        assertThatThrownBy(() -> TaskSpec.of("x").debounce(MINUTE, Duration.ZERO))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("debounceMaxWaitMs").hasMessageContaining("must be 1 to");
        assertThatThrownBy(() -> TaskSpec.of("x").debounce(MINUTE, Duration.ofMillis(-1)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("debounceMaxWaitMs");
        assertThatThrownBy(() -> TaskSpec.of("x").debounce(MINUTE, Duration.ofDays(31)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("debounceMaxWaitMs").hasMessageContaining("30 days");
        assertThatThrownBy(() -> q.client().enqueue(TaskSpec.of("x").after(MINUTE), DuplicatePolicy.DEBOUNCE))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("debounceMaxWaitMs").hasMessageContaining("DEBOUNCE");
        assertThatThrownBy(() -> q.client().enqueue(TaskSpec.of("x").debounce(MINUTE, MINUTE), DuplicatePolicy.REPLACE))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("duplicatePolicy").hasMessageContaining("must be DEBOUNCE");
        assertThat(q.waiting()).isEmpty();
    }
}
