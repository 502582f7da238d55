package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Kafka's {@code sasl.mechanism} values the worker supports; {@link #workerValue()} is DELAYQ_KAFKA_SASL_MECHANISM's. */
public enum KafkaSaslMechanism {
    @JsonProperty("PLAIN") PLAIN("PLAIN"),
    @JsonProperty("SCRAM-SHA-256") SCRAM_SHA_256("SCRAM-SHA-256"),
    @JsonProperty("SCRAM-SHA-512") SCRAM_SHA_512("SCRAM-SHA-512");

    private final String kafkaName;

    KafkaSaslMechanism(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    public String workerValue() {
        return kafkaName;
    }
}
