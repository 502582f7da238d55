package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import static io.delayq.settings.WorkerSettings.DEFAULT_OUTBOX_BATCH_SIZE;
import static io.delayq.settings.WorkerSettings.DEFAULT_OUTBOX_POLL_INTERVAL;
import static io.delayq.settings.WorkerSettings.DEFAULT_OUTBOX_RETRY_DELAY;
import static io.delayq.settings.WorkerSettings.MAX_OUTBOX_BATCH_SIZE;

/**
 * The PostgreSQL outbox whose rows a relay copies into this queue's Redis (docs/outbox.md). By default every worker
 * replica runs a relay; {@link OutboxRelaySpec} moves it into a Deployment of its own. Relays take disjoint batches
 * ({@code FOR UPDATE SKIP LOCKED}), so more of them never apply a row twice.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OutboxSpec {
    @JsonPropertyDescription("jdbc:postgresql://host:port/database of the database that holds the delayq_outbox table.")
    @Required
    @Pattern(Patterns.POSTGRESQL_JDBC_URL)
    @Size(max = 2048)
    @ValidationRule(value = "!self.matches('(?i)[?&;]password=')",
            message = "spec.outbox.jdbcUrl must not carry a password: name a Secret in spec.outbox.credentialsSecret")
    private String jdbcUrl;

    @JsonPropertyDescription("Secret holding the database user name and password; passed to the relay by secretKeyRef.")
    private BasicAuthSecretRef credentialsSecret;

    @JsonPropertyDescription("Rows a relay claims per round (1-10000).")
    @Default("" + DEFAULT_OUTBOX_BATCH_SIZE)
    @Min(1)
    @Max(MAX_OUTBOX_BATCH_SIZE)
    private int batchSize = DEFAULT_OUTBOX_BATCH_SIZE;

    @JsonPropertyDescription("The wait between rounds when no NOTIFY comes, e.g. 1s (10ms-1h).")
    @Default(DEFAULT_OUTBOX_POLL_INTERVAL)
    @Pattern(Durations.PATTERN)
    private String pollInterval = DEFAULT_OUTBOX_POLL_INTERVAL;

    @JsonPropertyDescription("The pause after a failed round, e.g. 1s (10ms-10m).")
    @Default(DEFAULT_OUTBOX_RETRY_DELAY)
    @Pattern(Durations.PATTERN)
    private String retryDelay = DEFAULT_OUTBOX_RETRY_DELAY;

    @JsonPropertyDescription("A query of the application's own that names the tasks that should exist; each one Redis lacks is enqueued.")
    private OutboxBackstopSpec backstop;

    @JsonPropertyDescription("Where the relay runs: inside every worker replica (mode Workers, the default) or in a Deployment of its own.")
    private OutboxRelaySpec relay;

    public String getJdbcUrl() {
        return jdbcUrl;
    }

    public void setJdbcUrl(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    public BasicAuthSecretRef getCredentialsSecret() {
        return credentialsSecret;
    }

    public void setCredentialsSecret(BasicAuthSecretRef credentialsSecret) {
        this.credentialsSecret = credentialsSecret;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public String getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(String pollInterval) {
        this.pollInterval = pollInterval;
    }

    public String getRetryDelay() {
        return retryDelay;
    }

    public void setRetryDelay(String retryDelay) {
        this.retryDelay = retryDelay;
    }

    public OutboxBackstopSpec getBackstop() {
        return backstop;
    }

    public void setBackstop(OutboxBackstopSpec backstop) {
        this.backstop = backstop;
    }

    public OutboxRelaySpec getRelay() {
        return relay;
    }

    public void setRelay(OutboxRelaySpec relay) {
        this.relay = relay;
    }
}
