package com.example.orders;

import com.example.orders.FakeOrderService.State;
import io.delayq.testkit.Acked;
import io.delayq.testkit.DeadLettered;
import io.delayq.testkit.DelayqTestKit;
import io.delayq.testkit.Retried;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The guide's step 3: the handler in a real worker on a real Redis (the test kit), calling a real HTTP order service. */
class OrderTimeoutHandlerTest {
    static final FakeOrderService orders = start();

    @RegisterExtension
    static DelayqTestKit<OrderTimeoutHandler> delayq = DelayqTestKit.forHandler(() -> new OrderTimeoutHandler(orders.url()))
            .queue("order-timeouts")
            .setting("DELAYQ_RETRY_MAX_ATTEMPTS", "3");

    private static FakeOrderService start() {
        try {
            return new FakeOrderService();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stopOrderService() {
        orders.close();
    }

    @Test
    void anUnpaidOrderIsCancelledWhenItsTaskFires() {
        orders.order("8812", State.UNPAID);

        delayq.enqueue("8812");

        assertThat(delayq.awaitAcked("8812").attempts()).isEqualTo(1);
        assertThat(orders.state("8812")).isEqualTo(State.CANCELLED);
        assertThat(orders.requests()).filteredOn(r -> r.path().equals("/orders/8812/cancel")).singleElement()
                .satisfies(r -> assertThat(r.idempotencyKey()).isEqualTo("8812"));
    }

    @Test
    void aPaidOrderIsLeftAsItIs() {
        orders.order("8813", State.PAID);

        delayq.enqueue("8813");

        delayq.awaitAcked("8813");
        assertThat(orders.state("8813")).isEqualTo(State.PAID);
    }

    @Test
    void anOrderTheServiceDoesNotKnowIsDeadLetteredAtOnce() {
        delayq.enqueue("9999");

        DeadLettered dead = delayq.awaitDeadLettered("9999");

        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.reason()).isEqualTo("PermanentFailure: order 9999 does not exist");
    }

    @Test
    void aBusyOrderServiceIsRetriedAfterItsRetryAfter() {
        orders.order("8814", State.UNPAID);
        orders.busyFor(1);

        delayq.enqueue("8814");

        Retried retried = delayq.awaitRetried("8814", 1);
        assertThat(retried.error()).isEqualTo("RetryLater: order service busy (503)");
        assertThat(retried.backoff()).isBetween(Duration.ofSeconds(1), Duration.ofMillis(1500));
        assertThat(delayq.awaitAcked("8814").attempts()).isEqualTo(2);
        assertThat(orders.state("8814")).isEqualTo(State.CANCELLED);
    }

    @Test
    void aBrokenOrderServiceIsRetriedWithTheQueuesBackoffUntilAttemptsRunOut() {
        orders.order("8815", State.UNPAID);
        orders.brokenFor(3);

        delayq.enqueue("8815");

        assertThat(delayq.awaitRetried("8815", 1).backoff()).isBetween(Duration.ofMillis(200), Duration.ofMillis(700));
        assertThat(delayq.awaitRetried("8815", 2).backoff()).isBetween(Duration.ofMillis(400), Duration.ofMillis(900));
        DeadLettered dead = delayq.awaitDeadLettered("8815");
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.reason()).isEqualTo("IOException: order service answered 500 for order 8815");
        assertThat(orders.state("8815")).isEqualTo(State.UNPAID);
    }

    @Test
    void aSecondDeliveryOfTheSameTaskCancelsOnlyOnce() {
        orders.order("8816", State.UNPAID);
        int before = orders.cancellations();

        delayq.enqueue("8816");
        Acked first = delayq.awaitAcked("8816");
        // at-least-once: the same task can come again (its lease expired while the first call was in the air)
        delayq.enqueue("8816");
        delayq.awaitAttempts("8816", 2);
        delayq.awaitAcked("8816");

        assertThat(first.attempts()).isEqualTo(1);
        assertThat(orders.requests()).filteredOn(r -> r.path().equals("/orders/8816/cancel"))
                .extracting(FakeOrderService.Request::idempotencyKey).containsExactly("8816", "8816");
        assertThat(orders.cancellations() - before).isEqualTo(1);
    }
}
