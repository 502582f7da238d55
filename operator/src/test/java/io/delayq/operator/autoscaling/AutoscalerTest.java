package io.delayq.operator.autoscaling;

import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class AutoscalerTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private static AutoscalingSpec policy(int min, int max, long target, String window) {
        AutoscalingSpec p = new AutoscalingSpec();
        p.setMinReplicas(min);
        p.setMaxReplicas(max);
        p.setTargetDuePerReplica(target);
        p.setScaleDownStabilization(window);
        return p;
    }

    private static ScalingDecision decide(AutoscalingSpec p, long due, Integer current, Instant pending, Instant now) {
        return Autoscaler.decide(p, 1, false, new ScalingInput(OptionalLong.of(due), current, pending, null, now));
    }

    @Test
    void replicasAreTheDueBacklogDividedByTheTargetRoundedUpWithinBounds() {
        assertThat(Autoscaler.wanted(0, 100, 1, 10)).isEqualTo(1);
        assertThat(Autoscaler.wanted(1, 100, 1, 10)).isEqualTo(1);
        assertThat(Autoscaler.wanted(100, 100, 1, 10)).isEqualTo(1);
        assertThat(Autoscaler.wanted(101, 100, 1, 10)).isEqualTo(2);
        assertThat(Autoscaler.wanted(950, 100, 1, 10)).isEqualTo(10);
        assertThat(Autoscaler.wanted(1_000_000, 100, 1, 10)).isEqualTo(10);
        assertThat(Autoscaler.wanted(0, 100, 0, 10)).as("scale to zero").isEqualTo(0);
        assertThat(Autoscaler.wanted(Long.MAX_VALUE, 1, 0, 1000)).isEqualTo(1000);
    }

    @Test
    void scalesUpAtOnceAndRecordsTheTime() {
        ScalingDecision d = decide(policy(1, 10, 100, "5m"), 450, 2, null, T0);

        assertThat(d.replicas()).isEqualTo(5);
        assertThat(d.lastScaleTime()).isEqualTo(T0);
        assertThat(d.scaleDownPendingSince()).isNull();
    }

    @Test
    void scalesDownOnlyAfterTheLowerCountWasWantedForTheWholeWindow() {
        AutoscalingSpec p = policy(1, 10, 100, "5m");

        ScalingDecision first = decide(p, 50, 5, null, T0);
        assertThat(first.replicas()).as("waits").isEqualTo(5);
        assertThat(first.scaleDownPendingSince()).isEqualTo(T0);

        ScalingDecision during = decide(p, 50, 5, first.scaleDownPendingSince(), T0.plus(Duration.ofMinutes(4)));
        assertThat(during.replicas()).isEqualTo(5);
        assertThat(during.scaleDownPendingSince()).isEqualTo(T0);

        ScalingDecision after = decide(p, 50, 5, first.scaleDownPendingSince(), T0.plus(Duration.ofMinutes(5)));
        assertThat(after.replicas()).isEqualTo(1);
        assertThat(after.scaleDownPendingSince()).isNull();
        assertThat(after.lastScaleTime()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
    }

    @Test
    void aBacklogThatComesBackCancelsAPendingScaleDown() {
        AutoscalingSpec p = policy(1, 10, 100, "5m");

        ScalingDecision back = decide(p, 500, 5, T0, T0.plus(Duration.ofMinutes(3)));

        assertThat(back.replicas()).isEqualTo(5);
        assertThat(back.scaleDownPendingSince()).isNull();
    }

    @Test
    void aCountAboveTheMaximumIsCorrectedAtOnce() {
        ScalingDecision d = decide(policy(1, 3, 100, "5m"), 10_000, 8, null, T0);

        assertThat(d.replicas()).isEqualTo(3);
    }

    @Test
    void withoutABacklogReadingTheCountStays() {
        ScalingInput unknown = new ScalingInput(OptionalLong.empty(), 4, null, null, T0);

        assertThat(Autoscaler.decide(policy(1, 10, 100, "5m"), 1, false, unknown).replicas()).isEqualTo(4);
        assertThat(Autoscaler.decide(policy(2, 10, 100, "5m"), 1, false,
                new ScalingInput(OptionalLong.empty(), null, null, null, T0)).replicas()).as("a new Deployment starts at min").isEqualTo(2);
    }

    @Test
    void aNewDeploymentStartsAtTheWantedCount() {
        assertThat(decide(policy(1, 10, 100, "5m"), 720, null, null, T0).replicas()).isEqualTo(8);
    }

    @Test
    void suspendWinsOverEveryMode() {
        ScalingInput busy = new ScalingInput(OptionalLong.of(1_000_000), 5, null, null, T0);

        assertThat(Autoscaler.decide(policy(1, 10, 1, "5m"), 3, true, busy).replicas()).isZero();
    }

    @Test
    void disabledAndExternalApplySpecReplicasAndNeverComputeTheirOwn() {
        ScalingInput busy = new ScalingInput(OptionalLong.of(1_000_000), 5, T0, null, T0);
        for (AutoscalingMode mode : new AutoscalingMode[]{AutoscalingMode.Disabled, AutoscalingMode.External}) {
            AutoscalingSpec p = policy(1, 10, 1, "5m");
            p.setMode(mode);

            ScalingDecision d = Autoscaler.decide(p, 2, false, busy);

            assertThat(d.replicas()).as(mode.name()).isEqualTo(2);
            assertThat(d.scaleDownPendingSince()).isNull();
            assertThat(Autoscaler.decide(p, null, false, busy).replicas()).as(mode + " without spec.replicas").isEqualTo(1);
        }
    }
}
