package io.delayq.operator;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationsAndSettingsTest {

    @Test
    void settingsHaveDefaults() {
        OperatorSettings s = OperatorSettings.fromEnv(Map.of());

        assertThat(s.watchAllNamespaces()).isTrue();
        assertThat(s.leaderElection()).isFalse();
        assertThat(s.metricsPort()).isEqualTo(8080);
        assertThat(s.backlogInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.leaderIdentity()).isNull();
        assertThat(s.leaderElectionTiming()).isEqualTo(LeaderElectionTiming.DEFAULT);
        assertThat(s.workerImage()).startsWith("ghcr.io/delayq/delayq-worker:").doesNotContain("${");
        assertThat(s.reshardBatch()).isEqualTo(io.delayq.reshard.Mover.DEFAULT_BATCH);
        assertThat(OperatorSettings.fromEnv(Map.of("DELAYQ_RESHARD_BATCH", "250")).reshardBatch()).isEqualTo(250);
    }

    @Test
    void settingsComeFromTheEnvironment() {
        OperatorSettings s = OperatorSettings.fromEnv(Map.of("DELAYQ_WATCH_NAMESPACES", "shop, wallet ,",
                "DELAYQ_LEADER_ELECTION", "true", "DELAYQ_METRICS_PORT", "9090", "DELAYQ_BACKLOG_INTERVAL", "30s",
                "DELAYQ_LEADER_ELECTION_NAMESPACE", "delayq-system"));

        assertThat(s.watchNamespaces()).containsExactlyInAnyOrder("shop", "wallet");
        assertThat(s.leaderElection()).isTrue();
        assertThat(s.leaderLeaseNamespace()).isEqualTo("delayq-system");
        assertThat(s.metricsPort()).isEqualTo(9090);
        assertThat(s.backlogInterval()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void badSettingsNameTheVariable() {
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION", "maybe")))
                .hasMessageContaining("DELAYQ_LEADER_ELECTION").hasMessageContaining("'maybe'");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_METRICS_PORT", "70000")))
                .hasMessageContaining("DELAYQ_METRICS_PORT");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_BACKLOG_INTERVAL", "0s")))
                .hasMessageContaining("DELAYQ_BACKLOG_INTERVAL");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_RESHARD_BATCH", "5000")))
                .hasMessageContaining("DELAYQ_RESHARD_BATCH").hasMessageContaining("between 1 and 1000").hasMessageContaining("'5000'");
    }

    @Test
    void leaderElectionTimingComesFromTheEnvironment() {
        OperatorSettings s = OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION_LEASE_DURATION", "4s",
                "DELAYQ_LEADER_ELECTION_RENEW_DEADLINE", "3s", "DELAYQ_LEADER_ELECTION_RETRY_PERIOD", "500ms",
                "DELAYQ_LEADER_ELECTION_IDENTITY", " operator-1 "));

        assertThat(s.leaderElectionTiming()).isEqualTo(new LeaderElectionTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)));
        assertThat(s.leaderIdentity()).isEqualTo("operator-1");
    }

    @Test
    void badLeaderElectionTimingNamesTheVariableAndTheRule() {
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION_LEASE_DURATION", "soon")))
                .hasMessageContaining("DELAYQ_LEADER_ELECTION_LEASE_DURATION").hasMessageContaining("'soon'");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION_RETRY_PERIOD", "0s")))
                .hasMessageContaining("DELAYQ_LEADER_ELECTION_RETRY_PERIOD").hasMessageContaining("longer than zero");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION_LEASE_DURATION", "15500ms")))
                .hasMessageContaining("DELAYQ_LEADER_ELECTION_LEASE_DURATION").hasMessageContaining("whole number of seconds");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION_LEASE_DURATION", "10s")))
                .hasMessageContaining("DELAYQ_LEADER_ELECTION_RENEW_DEADLINE must be shorter than DELAYQ_LEADER_ELECTION_LEASE_DURATION");
        assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DELAYQ_LEADER_ELECTION_RETRY_PERIOD", "5s")))
                .hasMessageContaining("DELAYQ_LEADER_ELECTION_RENEW_DEADLINE must be longer than DELAYQ_LEADER_ELECTION_RETRY_PERIOD");
    }
}
