package io.delayq.console.safety;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The back-off of failed sign-ins, on a clock the test moves (nothing waits). */
class SignInThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final SignInThrottle throttle = new SignInThrottle(now::get);

    @Test
    void theFirstFailuresAreFreeThenEachDoublesTheWaitUpToTheCap() {
        for (int i = 1; i <= SignInThrottle.FREE_FAILURES; i++) {
            assertThat(throttle.failed("10.0.0.1")).isEqualTo(i);
            assertThat(throttle.waitMs("10.0.0.1")).as("failure %d", i).isZero();
        }
        throttle.failed("10.0.0.1");
        assertThat(throttle.waitMs("10.0.0.1")).isEqualTo(1_000);
        throttle.failed("10.0.0.1");
        assertThat(throttle.waitMs("10.0.0.1")).isEqualTo(2_000);
        throttle.failed("10.0.0.1");
        assertThat(throttle.waitMs("10.0.0.1")).isEqualTo(4_000);
        now.addAndGet(1_500);
        assertThat(throttle.waitMs("10.0.0.1")).isEqualTo(2_500);
        assertThat(throttle.waitMs("10.0.0.2")).as("another address is not slowed down").isZero();
        for (int i = 0; i < 40; i++) {
            throttle.failed("10.0.0.1");
        }
        assertThat(throttle.waitMs("10.0.0.1")).isEqualTo(SignInThrottle.MAX_WAIT_MS);
    }

    @Test
    void aSuccessForgetsTheAddress() {
        for (int i = 0; i < 8; i++) {
            throttle.failed("10.0.0.1");
        }
        now.addAndGet(SignInThrottle.MAX_WAIT_MS);
        throttle.succeeded("10.0.0.1");
        assertThat(throttle.failed("10.0.0.1")).isEqualTo(1);
        assertThat(throttle.waitMs("10.0.0.1")).isZero();
    }
}
