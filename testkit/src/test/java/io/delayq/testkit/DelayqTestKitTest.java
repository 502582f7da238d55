package io.delayq.testkit;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.PermanentFailure;
import io.delayq.handler.RetryLater;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kit's helpers observe each outcome of a real worker: acked, retried with attempt and backoff, dead-lettered with its reason. */
class DelayqTestKitTest {
    /** Behaves by task id: {@code ok-*} succeeds, {@code flaky-*} fails its first two attempts, {@code gone-*} is permanent, {@code later-*} asks for 700 ms. */
    static final class ScriptedHandler implements TaskHandler {
        final List<String> started = new CopyOnWriteArrayList<>();

        @Override
        public void start(HandlerContext context) {
            started.add(context.queue());
        }

        @Override
        public void handle(Task task) throws Exception {
            String id = task.id();
            if (id.startsWith("flaky-") && task.attempt() <= 2) {
                throw new IllegalStateException("gateway timed out (attempt " + task.attempt() + ")");
            }
            if (id.startsWith("gone-")) {
                throw new PermanentFailure("order " + id + " does not exist");
            }
            if (id.startsWith("later-") && task.attempt() == 1) {
                throw new RetryLater("bank closed", Duration.ofMillis(700));
            }
            if (id.startsWith("broken-")) {
                throw new IllegalArgumentException("cannot parse payload");
            }
        }
    }

    @RegisterExtension
    static DelayqTestKit<ScriptedHandler> delayq = DelayqTestKit.forHandler(ScriptedHandler::new)
            .queue("orders").shards(3).timeout(Duration.ofSeconds(15));

    @Test
    void aTaskTheHandlerFinishesIsAcked() {
        delayq.enqueue("ok-1", "{\"order\":1}");

        Acked acked = delayq.awaitAcked("ok-1");

        assertThat(acked.attempts()).isEqualTo(1);
        assertThat(delayq.attempts("ok-1")).singleElement().satisfies(a -> assertThat(a.task().payload()).isEqualTo("{\"order\":1}"));
        assertThat(delayq.handler().started).containsExactly("orders");
    }

    @Test
    void failedAttemptsAreRetriedWithTheirNumberAndTheGrowingBackoff() {
        delayq.enqueue("flaky-7");

        Retried first = delayq.awaitRetried("flaky-7", 1);
        Retried second = delayq.awaitRetried("flaky-7", 2);
        Acked acked = delayq.awaitAcked("flaky-7");

        assertThat(first.error()).isEqualTo("IllegalStateException: gateway timed out (attempt 1)");
        // kit defaults: 200 ms, then doubled; the measured wait adds only the worker's settle time
        assertThat(first.backoff()).isBetween(Duration.ofMillis(200), Duration.ofMillis(200 + 500));
        assertThat(second.error()).isEqualTo("IllegalStateException: gateway timed out (attempt 2)");
        assertThat(second.backoff()).isBetween(Duration.ofMillis(400), Duration.ofMillis(400 + 500));
        assertThat(acked.attempts()).isEqualTo(3);
    }

    @Test
    void aRetryLaterWaitsItsOwnDelay() {
        delayq.enqueue("later-1");

        Retried retried = delayq.awaitRetried("later-1", 1);

        assertThat(retried.error()).isEqualTo("RetryLater: bank closed");
        assertThat(retried.backoff()).isBetween(Duration.ofMillis(700), Duration.ofMillis(700 + 500));
    }

    @Test
    void aPermanentFailureIsDeadLetteredAtOnceWithItsReason() {
        delayq.enqueue("gone-8812");

        DeadLettered dead = delayq.awaitDeadLettered("gone-8812");

        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.reason()).isEqualTo("PermanentFailure: order gone-8812 does not exist");
    }

    @Test
    void anOrdinaryFailureDiesAfterTheLastAttempt() {
        delayq.enqueue("broken-3");

        DeadLettered dead = delayq.awaitDeadLettered("broken-3");

        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.reason()).isEqualTo("IllegalArgumentException: cannot parse payload");
        assertThat(delayq.attempts("broken-3")).extracting(Attempt::number).containsExactly(1, 2, 3);
    }

    @Test
    void waitingForAnAckOfATaskThatDiedFailsWithTheReason() {
        delayq.enqueue("gone-1");

        assertThatThrownBy(() -> delayq.awaitAcked("gone-1")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("task gone-1 was dead-lettered after 1 attempt(s), not acked: PermanentFailure: order gone-1 does not exist");
    }

    @Test
    void eachTestStartsOnAnEmptyQueueWithAFreshHandler() {
        assertThat(delayq.client().stats().shards()).allSatisfy(s -> assertThat(s.due() + s.scheduled() + s.inflight() + s.dead()).isZero());
        assertThat(delayq.handler().started).containsExactly("orders");
    }
}
