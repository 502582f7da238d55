package io.delayq.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Config;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SDK configuration the operator runs with. Leader election's behaviour (one leader, take-over
 * after the leader stops) is shown by {@code it.LeaderElectionMockClusterTest}; this checks the wiring.
 */
class OperatorConfigurationTest {
    private final KubernetesClient client = new KubernetesClientBuilder()
            .withConfig(Config.empty()).build();

    private Operator operator(Map<String, String> env) {
        return new Operator(DelayQueueOperator.configuration(client, OperatorSettings.fromEnv(env), false, new SimpleMeterRegistry(),
                new LeadershipLoss(() -> {
                })));
    }

    @Test
    void serverSideApplyIsOffForStatusAndDependents() {
        var config = operator(Map.of()).getConfigurationService();

        assertThat(config.useSSAToPatchPrimaryResource()).isFalse();
        assertThat(config.ssaBasedCreateUpdateMatchForDependentResources()).isFalse();
        assertThat(config.getLeaderElectionConfiguration()).isEmpty();
    }

    @Test
    void leaderElectionUsesTheConfiguredLease() {
        var config = operator(Map.of("DELAYQ_LEADER_ELECTION", "true", "DELAYQ_LEADER_ELECTION_NAMESPACE", "delayq-system"))
                .getConfigurationService();

        LeaderElectionConfiguration election = config.getLeaderElectionConfiguration().orElseThrow();
        assertThat(election.getLeaseName()).isEqualTo("delayq-operator-leader");
        assertThat(election.getLeaseNamespace()).hasValue("delayq-system");
        assertThat(election.getLeaseDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(election.getRenewDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(election.getRetryPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(election.getIdentity()).as("the SDK falls back to HOSTNAME, the pod name").isEmpty();
        // The SDK's exit would also fire on a deliberate stop; LeadershipLoss ends the process on a lost Lease only.
        assertThat(election.isExitOnStopLeading()).isFalse();
        assertThat(election.getLeaderCallbacks()).isPresent();
    }

    @Test
    void leaderElectionTimingAndIdentityComeFromTheSettings() {
        var election = operator(Map.of("DELAYQ_LEADER_ELECTION", "true", "DELAYQ_LEADER_ELECTION_IDENTITY", "operator-0",
                "DELAYQ_LEADER_ELECTION_LEASE_DURATION", "4s", "DELAYQ_LEADER_ELECTION_RENEW_DEADLINE", "3s",
                "DELAYQ_LEADER_ELECTION_RETRY_PERIOD", "500ms")).getConfigurationService().getLeaderElectionConfiguration().orElseThrow();

        assertThat(election.getIdentity()).hasValue("operator-0");
        assertThat(election.getLeaseDuration()).isEqualTo(Duration.ofSeconds(4));
        assertThat(election.getRenewDeadline()).isEqualTo(Duration.ofSeconds(3));
        assertThat(election.getRetryPeriod()).isEqualTo(Duration.ofMillis(500));
    }
}
