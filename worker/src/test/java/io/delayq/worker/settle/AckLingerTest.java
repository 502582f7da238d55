package io.delayq.worker.settle;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class AckLingerTest {
    @Test
    void aLoneAckLingersAtMostFiftyMillisecondsAndNeverMoreThanATenthOfTheLease() {
        assertThat(Settler.ackLinger(Duration.ofSeconds(30))).isEqualTo(Duration.ofMillis(50));
        assertThat(Settler.ackLinger(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(50));
        assertThat(Settler.ackLinger(Duration.ofMillis(200))).isEqualTo(Duration.ofMillis(20));
        assertThat(Settler.ackLinger(Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(10));
    }
}
