package com.example.orders;

import com.example.orders.FakeOrderService.State;
import io.delayq.localredis.LocalRedisServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The guide's step 4: the handler embedded in an application's JVM, fed by the shop's checkout. */
class EmbeddedOrderTimeoutsTest {
    @Test
    void anOrderLeftUnpaidPastItsWindowIsCancelledByTheEmbeddedWorker() throws Exception {
        try (LocalRedisServer redis = LocalRedisServer.start();
             FakeOrderService orders = new FakeOrderService().order("8812", State.UNPAID).order("8820", State.UNPAID);
             EmbeddedOrderTimeouts worker = new EmbeddedOrderTimeouts(redis.url(), orders.url());
             Checkout checkout = new Checkout(redis.url(), Duration.ofMillis(500))) {
            checkout.placeOrder("8812");
            checkout.placeOrder("8820");
            orders.order("8820", State.PAID); // paid within the window

            await().atMost(Duration.ofSeconds(10)).until(() -> orders.state("8812") == State.CANCELLED
                    && orders.requests().stream().anyMatch(r -> r.path().equals("/orders/8820/cancel")));
            assertThat(orders.state("8820")).isEqualTo(State.PAID);
        }
    }
}
