package io.delayq.operator.resource;

import java.util.Locale;

/** Kafka's {@code security.protocol} values, spelt as Kafka spells them; {@link #workerValue()} is DELAYQ_KAFKA_SECURITY_PROTOCOL's. */
public enum KafkaSecurityProtocol {
    PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL;

    public String workerValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
