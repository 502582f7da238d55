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
}
