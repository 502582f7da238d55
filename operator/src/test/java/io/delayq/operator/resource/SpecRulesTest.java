package io.delayq.operator.resource;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Durations against the worker's ranges and the claim-ahead window against the lease, in every syntax the CRD accepts, CEL's blind spots included. */
class SpecRulesTest {
    private static DelayQueueSpec spec(String lease, String claimAhead) {
        DelayQueueSpec spec = new DelayQueueSpec();
        spec.setLease(lease);
        spec.setClaimAhead(claimAhead);
        return spec;
    }

    @Test
    void aWindowUpToATenthOfTheLeaseOrOffOrLeftOutIsAccepted() {
        assertThatCode(() -> SpecRules.check(spec("2s", "200ms"))).doesNotThrowAnyException();
        assertThatCode(() -> SpecRules.check(spec("500ms", "0s"))).doesNotThrowAnyException();
        assertThatCode(() -> SpecRules.check(spec("500ms", null))).as("left out: the worker shortens its default").doesNotThrowAnyException();
        assertThatCode(() -> SpecRules.check(spec("12h", "10s"))).as("the widest window, under the longest lease").doesNotThrowAnyException();
        assertThatCode(() -> SpecRules.check(spec("PT2S", "PT0.2S"))).as("ISO-8601").doesNotThrowAnyException();
    }

    @Test
    void aWiderWindowIsRefusedNamingBothFieldsAndTheLimit() {
        assertThatThrownBy(() -> SpecRules.check(spec("500ms", "100ms")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spec.claimAhead").hasMessageContaining("spec.lease").hasMessageContaining("50ms")
                .hasMessageContaining("got 100ms");
        assertThatThrownBy(() -> SpecRules.check(spec("PT1S", "PT0.2S"))).hasMessageContaining("spec.claimAhead");
    }

    @Test
    void aDurationOutsideTheWorkersRangeIsRefusedNamingTheFieldTheRangeAndTheVariable() {
        assertThatThrownBy(() -> SpecRules.check(spec("1d", null))).as("days, which CEL cannot read")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spec.lease must be between 100ms and 12h (what the worker accepts as DELAYQ_LEASE), got 1d");
        DelayQueueSpec planner = spec("30s", null);
        planner.setSchedulePlanner(new SchedulePlannerSpec());
        planner.getSchedulePlanner().setHorizon("PT1S");
        assertThatThrownBy(() -> SpecRules.check(planner)).as("ISO-8601, in a nested field")
                .hasMessageStartingWith("spec.schedulePlanner.horizon must be between 2s and 1d");
    }

    @Test
    void anUnreadableDurationIsNamed() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> SpecRules.check(spec("30s", "soon"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spec.claimAhead");
    }

    private static DelayQueueSpec forecast(String warmup, String horizon, double perReplicaPerSecond) {
        DelayQueueSpec spec = spec("30s", null);
        AutoscalingSpec a = new AutoscalingSpec();
        a.setMode(AutoscalingMode.Forecast);
        a.setWarmup(warmup);
        a.setHorizon(horizon);
        a.setTargetTasksPerReplicaPerSecond(perReplicaPerSecond);
        spec.setAutoscaling(a);
        return spec;
    }

    @Test
    void forecastFieldsAreCheckedInEverySyntaxNamingTheField() {
        assertThatCode(() -> SpecRules.check(forecast("60s", "15m", 100))).doesNotThrowAnyException();
        assertThatCode(() -> SpecRules.check(forecast("PT2M", "2m", 0.5))).as("equal, ISO-8601").doesNotThrowAnyException();
        assertThatCode(() -> SpecRules.check(forecast("1m", "1d", 1))).as("days, which CEL cannot read").doesNotThrowAnyException();

        assertThatThrownBy(() -> SpecRules.check(forecast("PT2M", "90s", 1))).as("horizon shorter than warmup, past the CEL rule")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spec.autoscaling.horizon must not be shorter than spec.autoscaling.warmup (PT2M), got 90s: "
                        + "the forecast must look at least as far ahead as pods take to start");
        assertThatThrownBy(() -> SpecRules.check(forecast("60s", "2d", 1))).hasMessage("spec.autoscaling.horizon must be at most 1d, got 2d");
        assertThatThrownBy(() -> SpecRules.check(forecast("0s", "15m", 1))).hasMessage("spec.autoscaling.warmup must be between 1s and 1h, got 0s");
        assertThatThrownBy(() -> SpecRules.check(forecast("2h", "1d", 1))).hasMessageStartingWith("spec.autoscaling.warmup must be between");
        assertThatThrownBy(() -> SpecRules.check(forecast("soon", "15m", 1))).hasMessageContaining("spec.autoscaling.warmup");
        assertThatThrownBy(() -> SpecRules.check(forecast("60s", "15m", 0)))
                .hasMessage("spec.autoscaling.targetTasksPerReplicaPerSecond must be above 0, got 0.0");
        assertThatThrownBy(() -> SpecRules.check(forecast("60s", "15m", Double.NaN))).hasMessageContaining("targetTasksPerReplicaPerSecond");
    }
}
