package io.delayq.operator.resource;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The claim-ahead window against the lease in every duration syntax the CRD accepts, CEL's blind spots included. */
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
        assertThatCode(() -> SpecRules.check(spec("1d", "10s"))).as("days, which CEL cannot read").doesNotThrowAnyException();
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
    void anUnreadableDurationIsNamed() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> SpecRules.check(spec("30s", "soon"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spec.claimAhead");
    }
}
