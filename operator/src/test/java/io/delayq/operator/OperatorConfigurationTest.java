package io.delayq.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Config;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SDK configuration the operator runs with. Leader election cannot run against the mock API
 * server (the SDK first checks its Lease permissions with a SelfSubjectRulesReview, which the mock
 * does not answer), so its wiring is checked here and its behaviour is left to a real cluster.
 */
class OperatorConfigurationTest {
    private final KubernetesClient client = new KubernetesClientBuilder()
            .withConfig(Config.empty()).build();

    private Operator operator(Map<String, String> env) {
        return new Operator(DelayQueueOperator.configuration(client, OperatorSettings.fromEnv(env), false, new SimpleMeterRegistry()));
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
        assertThat(election.isExitOnStopLeading()).isTrue();
    }
}
