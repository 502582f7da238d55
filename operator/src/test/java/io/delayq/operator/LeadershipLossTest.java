package io.delayq.operator;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class LeadershipLossTest {
    private final AtomicInteger exits = new AtomicInteger();
    private final LeadershipLoss loss = new LeadershipLoss(exits::incrementAndGet);

    @Test
    void losingTheLeaseWhileRunningEndsTheProcessOnce() {
        loss.callbacks().onStopLeading();
        loss.callbacks().onStopLeading();

        assertThat(exits).hasValue(1);
    }

    @Test
    void stoppingToLeadOnCloseIsNoLoss() {
        loss.closing();
        loss.callbacks().onStopLeading();

        assertThat(exits).hasValue(0);
    }
}
