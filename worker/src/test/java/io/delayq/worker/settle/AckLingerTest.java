package io.delayq.worker.settle;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class AckLingerTest {
    @Test
    void aLoneAckLingersAtMostTwoHundredMillisecondsAndNeverMoreThanATenthOfTheLease() {
        assertThat(Settler.ackLinger(Duration.ofSeconds(30))).isEqualTo(Duration.ofMillis(200));
        assertThat(Settler.ackLinger(Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(200));
        assertThat(Settler.ackLinger(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(50));
        assertThat(Settler.ackLinger(Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void aRoundWaitsForCompanyWhileItsCallsWouldCarryFewerThanSixteenAcksEachAndClaimedTasksStillRun() {
        // 40 acks over 4 shards, 10 claimed tasks still running: 10 a call, worth waiting for
        assertThat(Settler.wantsCompany(40, 4, 50, 40)).isTrue();
        // 16 a call: sent
        assertThat(Settler.wantsCompany(64, 4, 100, 64)).isFalse();
        assertThat(Settler.wantsCompany(16, 1, 100, 16)).isFalse();
        // one ack, one shard, tasks still running: waits
        assertThat(Settler.wantsCompany(1, 1, 3, 1)).isTrue();
    }

    @Test
    void aRoundGoesAtOnceWhenEveryClaimedTaskIsAlreadyHandedIn() {
        // the last acks of a drain: nothing left that could join them
        assertThat(Settler.wantsCompany(3, 2, 3, 3)).isFalse();
        // handed in beyond the registry (a retry finishing meanwhile): nothing to wait for either
        assertThat(Settler.wantsCompany(1, 1, 1, 2)).isFalse();
    }
}
