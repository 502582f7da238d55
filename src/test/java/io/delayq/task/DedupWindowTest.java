package io.delayq.task;

import io.delayq.InvalidInputException;
import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.EnqueueResult.Status;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Dedup windows (include/dedup.lua): an id stays refused for a while after its task was acked, cancelled or dead-lettered. */
class DedupWindowTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Instant LATER = Instant.parse("2100-01-01T00:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "mail", 1);

    private ClaimedTask running(TaskSpec spec) {
        assertThat(q.client().enqueue(spec).status()).isEqualTo(Status.ADDED);
        ClaimedTask t = q.claim(0, 1, Duration.ofMinutes(1)).tasks().get(0);
        assertThat(t.id()).isEqualTo(spec.id());
        return t;
    }

    private Double windowScore(String id) {
        return get(q.redis().zscore(q.keys(0).dedup(), id));
    }

    @Test
    void anAckStartsTheWindowAndEveryPolicyIsRefusedUntilItEnds() {
        ClaimedTask t = running(TaskSpec.of("welcome-42").payload("p").dedupWindow(HOUR));
        // while the task exists, the window waits for its settle: minus its length
        assertThat(windowScore("welcome-42")).isEqualTo(-HOUR.toMillis());
        long before = q.serverNow();
        assertThat(q.ack(t)).containsExactly(true);
        long after = q.serverNow();
        assertThat(q.storedRecord("welcome-42")).isNull();
        double end = windowScore("welcome-42");
        assertThat((long) end).isBetween(before + HOUR.toMillis(), after + HOUR.toMillis());
        for (DuplicatePolicy policy : List.of(DuplicatePolicy.REJECT, DuplicatePolicy.REPLACE, DuplicatePolicy.KEEP_EARLIER,
                DuplicatePolicy.FUTURE_ONLY, DuplicatePolicy.ONCE)) {
            EnqueueResult r = q.client().enqueue(TaskSpec.of("welcome-42").at(LATER).payload("again"), policy);
            assertThat(r).as(policy.name()).isEqualTo(new EnqueueResult("welcome-42", Status.WINDOW, (long) end));
        }
        assertThat(q.client().inspect("welcome-42").state()).as("nothing of it waits").isEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
        assertThat(q.waiting()).isEmpty();
        // other ids are not affected
        assertThat(q.client().enqueue(TaskSpec.of("welcome-43").at(LATER)).status()).isEqualTo(Status.ADDED);
    }

    @Test
    void aCancelStartsTheWindow() {
        q.client().enqueue(TaskSpec.of("c-1").at(LATER).dedupWindow(HOUR));
        assertThat(q.client().cancel("c-1")).isEqualTo(CancelResult.CANCELLED);
        assertThat(windowScore("c-1")).isGreaterThan((double) q.serverNow());
        assertThat(q.client().enqueue(TaskSpec.of("c-1").at(LATER)).status()).isEqualTo(Status.WINDOW);
    }

    @Test
    void deadLetteringStartsTheWindowByRetryAndByReclaim() {
        ClaimedTask t = running(TaskSpec.of("d-1").payload("p").dedupWindow(HOUR));
        q.kill(t, "permanent", DeadLetterPolicy.DEFAULT);
        assertThat(windowScore("d-1")).isGreaterThan((double) q.serverNow());
        assertThat(q.client().enqueue(TaskSpec.of("d-1").at(LATER), DuplicatePolicy.REPLACE).status()).isEqualTo(Status.WINDOW);

        // a lease that expires on the last attempt dead-letters it too
        q.client().enqueue(TaskSpec.of("d-2").payload("p").dedupWindow(HOUR));
        ClaimedTask lost = q.claim(0, 1, Duration.ofMillis(50)).tasks().get(0);
        q.awaitExpiry(lost.token());
        assertThat(q.reclaim(0, 1).dead()).isEqualTo(1);
        assertThat(q.client().enqueue(TaskSpec.of("d-2").at(LATER)).status()).isEqualTo(Status.WINDOW);
    }

    @Test
    void theIdIsAcceptedAgainOnceTheWindowEnded() {
        ClaimedTask t = running(TaskSpec.of("short").payload("p").dedupWindow(Duration.ofMillis(300)));
        q.ack(t);
        assertThat(q.client().enqueue(TaskSpec.of("short").at(LATER)).status()).isEqualTo(Status.WINDOW);
        await().atMost(TestQueue.WAIT).until(() -> q.client().enqueue(TaskSpec.of("short").at(LATER)).status() == Status.ADDED);
        // the new task carries no window: its ack leaves none (the ended one is aged out by that settle)
        q.client().cancel("short");
        assertThat(windowScore("short")).isNull();
        assertThat(get(q.redis().exists(q.keys(0).dedup()))).isZero();
    }

    @Test
    void settlingScriptsAgeOutEndedWindowsSoTheSetStaysBounded() {
        for (int i = 0; i < 5; i++) {
            q.client().enqueue(TaskSpec.of("w-" + i).at(LATER).dedupWindow(Duration.ofMillis(1)));
            q.client().cancel("w-" + i);
        }
        await().atMost(TestQueue.WAIT).until(() -> q.serverNow() > windowScore("w-4"));
        q.client().enqueue(TaskSpec.of("other").at(LATER).dedupWindow(HOUR));
        q.client().cancel("other");
        assertThat(q.zrange(q.keys(0).dedup())).extracting(ScoredValue::getValue).containsExactly("other");
    }

    @Test
    void aReplaceWithoutAWindowDropsTheWaitingOne() {
        q.client().enqueue(TaskSpec.of("r-1").at(LATER).dedupWindow(HOUR));
        q.client().enqueue(TaskSpec.of("r-1").at(LATER).payload("new"), DuplicatePolicy.REPLACE);
        assertThat(windowScore("r-1")).isNull();
        q.client().cancel("r-1");
        assertThat(q.client().enqueue(TaskSpec.of("r-1").at(LATER)).status()).isEqualTo(Status.ADDED);
    }

    @Test
    void aQueueWithoutWindowsNeverWritesTheSet() {
        ClaimedTask t = running(TaskSpec.of("plain").payload("p"));
        q.ack(t);
        q.client().enqueue(TaskSpec.of("plain2").at(LATER));
        q.client().cancel("plain2");
        assertThat(q.client().enqueue(TaskSpec.of("plain").at(LATER)).status()).isEqualTo(Status.ADDED);
        assertThat(get(q.redis().exists(q.keys(0).dedup()))).isZero();
        assertThat(q.client().inspect("plain").rawRecord()).doesNotContain("dedupWindowMs");
    }

    @Test
    void windowsOutOfBoundsNameTheFieldAndTheRule() {
        assertThatThrownBy(() -> TaskSpec.of("x").dedupWindow(Duration.ZERO))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("dedupWindowMs").hasMessageContaining("must be 1 to 2592000000 ms");
        assertThatThrownBy(() -> TaskSpec.of("x").dedupWindow(Duration.ofMillis(-5)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("dedupWindowMs");
        assertThatThrownBy(() -> TaskSpec.of("x").dedupWindow(Duration.ofDays(31)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("dedupWindowMs").hasMessageContaining("30 days");
        assertThat(TaskSpec.of("x").dedupWindow(Duration.ofDays(30)).options().dedupWindowMs()).isEqualTo(Duration.ofDays(30).toMillis());
    }
}
