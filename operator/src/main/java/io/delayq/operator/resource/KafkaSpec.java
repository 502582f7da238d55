package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import static io.delayq.settings.WorkerSettings.DEFAULT_KAFKA_TIMEOUT;

/**
 * A record per attempt to a Kafka topic (key = task id), produced idempotently with acks=all (docs/worker.md,
 * "Kafka hand-off"). The rules between the security fields are the worker's (KafkaAccess): credentials with SASL
 * only, TLS files with TLS only.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.topic) || (self.topic != '.' && self.topic != '..')",
        message = "spec.delivery.kafka.topic must not be '.' or '..' (Kafka refuses those names)")
@ValidationRule(value = "!has(self.saslMechanism) || (has(self.securityProtocol) && self.securityProtocol.startsWith('SASL_'))",
        message = "spec.delivery.kafka.saslMechanism needs spec.delivery.kafka.securityProtocol SASL_SSL or SASL_PLAINTEXT")
@ValidationRule(value = "has(self.credentialsSecret) || !has(self.securityProtocol) || !self.securityProtocol.startsWith('SASL_')",
        message = "spec.delivery.kafka.credentialsSecret is required with securityProtocol SASL_SSL or SASL_PLAINTEXT: the SASL user name and password")
@ValidationRule(value = "!has(self.credentialsSecret) || (has(self.securityProtocol) && self.securityProtocol.startsWith('SASL_'))",
        message = "spec.delivery.kafka.credentialsSecret needs spec.delivery.kafka.securityProtocol SASL_SSL or SASL_PLAINTEXT: "
                + "with PLAINTEXT or SSL no credentials are sent")
@ValidationRule(value = "(!has(self.tlsCaSecret) && !has(self.tlsClientSecret)) || (has(self.securityProtocol) && self.securityProtocol.endsWith('SSL'))",
        message = "spec.delivery.kafka.tlsCaSecret and tlsClientSecret need spec.delivery.kafka.securityProtocol SSL or SASL_SSL: "
                + "with PLAINTEXT or SASL_PLAINTEXT there is no TLS")
public class KafkaSpec {
    @JsonPropertyDescription("host:port of some brokers of the cluster, comma-separated, e.g. kafka-0.kafka:9092,kafka-1.kafka:9092.")
    @Required
    @Pattern(Patterns.KAFKA_BOOTSTRAP_SERVERS)
    @Size(max = 2048)
    private String bootstrapServers;

    @JsonPropertyDescription("The topic the records go to (1-249 letters, digits, '.', '_', '-'); the worker does not create it.")
    @Required
    @Pattern(Patterns.KAFKA_TOPIC)
    private String topic;

    @JsonPropertyDescription("How long a send may wait for the topic's metadata and the acknowledgement before the task is retried "
            + "with the queue's backoff, e.g. 10s (100ms-10m).")
    @Default(DEFAULT_KAFKA_TIMEOUT)
    @Pattern(Durations.PATTERN)
    private String timeout = DEFAULT_KAFKA_TIMEOUT;

    @JsonPropertyDescription("The producer's client.id (quotas, broker logs). Left out: delayq-<queue>.")
    @Size(min = 1, max = 255)
    private String clientId;

    @JsonPropertyDescription("compression.type of the records. Left out: none.")
    private KafkaCompression compression;

    @JsonPropertyDescription("security.protocol towards the brokers. Left out: PLAINTEXT.")
    private KafkaSecurityProtocol securityProtocol;

    @JsonPropertyDescription("sasl.mechanism, with securityProtocol SASL_SSL or SASL_PLAINTEXT. Left out: PLAIN.")
    private KafkaSaslMechanism saslMechanism;

    @JsonPropertyDescription("Secret holding the SASL user name and password (required with SASL_*); passed to workers by secretKeyRef.")
    private BasicAuthSecretRef credentialsSecret;

    @JsonPropertyDescription("Secret key holding the PEM CA certificate(s) the brokers' certificates chain to (SSL, SASL_SSL). "
            + "Left out: the JVM's trust. Mounted read-only in the workers.")
    private TlsCaSecretRef tlsCaSecret;

    @JsonPropertyDescription("Secret holding a client certificate and key, for brokers that require mutual TLS (SSL, SASL_SSL). "
            + "Mounted read-only in the workers.")
    private ClientCertificateSecretRef tlsClientSecret;

    public String getBootstrapServers() {
        return bootstrapServers;
    }

    public void setBootstrapServers(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getTimeout() {
        return timeout;
    }

    public void setTimeout(String timeout) {
        this.timeout = timeout;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public KafkaCompression getCompression() {
        return compression;
    }

    public void setCompression(KafkaCompression compression) {
        this.compression = compression;
    }

    public KafkaSecurityProtocol getSecurityProtocol() {
        return securityProtocol;
    }

    public void setSecurityProtocol(KafkaSecurityProtocol securityProtocol) {
        this.securityProtocol = securityProtocol;
    }

    public KafkaSaslMechanism getSaslMechanism() {
        return saslMechanism;
    }

    public void setSaslMechanism(KafkaSaslMechanism saslMechanism) {
        this.saslMechanism = saslMechanism;
    }

    public BasicAuthSecretRef getCredentialsSecret() {
        return credentialsSecret;
    }

    public void setCredentialsSecret(BasicAuthSecretRef credentialsSecret) {
        this.credentialsSecret = credentialsSecret;
    }

    public TlsCaSecretRef getTlsCaSecret() {
        return tlsCaSecret;
    }

    public void setTlsCaSecret(TlsCaSecretRef tlsCaSecret) {
        this.tlsCaSecret = tlsCaSecret;
    }

    public ClientCertificateSecretRef getTlsClientSecret() {
        return tlsClientSecret;
    }

    public void setTlsClientSecret(ClientCertificateSecretRef tlsClientSecret) {
        this.tlsClientSecret = tlsClientSecret;
    }
}
