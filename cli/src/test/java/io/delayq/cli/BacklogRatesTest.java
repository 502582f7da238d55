package io.delayq.cli;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.cli.backlog.BacklogRates;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The arithmetic of top's rates: net changes of the backlog counts between two snapshots. */
class BacklogRatesTest {
    private static QueueStats at(long now, long scheduled, long due, long inflight, long dead) {
        return new QueueStats("q", List.of(new ShardStats(0, now, scheduled, due, inflight, dead, -1)));
    }

    @Test
    void drainingBacklogShowsFiredDoneAndFailedPerSecond() {
        // over 2 s: 40 left the waiting sets, 30 finished, 4 died, in flight grew by 6
        BacklogRates r = BacklogRates.between(at(10_000, 100, 20, 10, 0), at(12_000, 70, 10, 16, 4));

        assertThat(r.seconds()).isEqualTo(2.0);
        assertThat(r.firedPerSecond()).isCloseTo(20.0, within(1e-9));
        assertThat(r.donePerSecond()).isCloseTo(15.0, within(1e-9));
        assertThat(r.failedPerSecond()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void growingBacklogIsClampedAtZeroNotNegative() {
        BacklogRates r = BacklogRates.between(at(0, 10, 0, 0, 5), at(1_000, 50, 5, 2, 1));

        assertThat(r.firedPerSecond()).isZero();
        assertThat(r.donePerSecond()).isZero();
        assertThat(r.failedPerSecond()).isZero();
    }
}
