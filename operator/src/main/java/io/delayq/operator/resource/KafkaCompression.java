package io.delayq.operator.resource;

/** Kafka's {@code compression.type} values, spelt as Kafka spells them; the name is DELAYQ_KAFKA_COMPRESSION's value. */
public enum KafkaCompression {
    none, gzip, snappy, lz4, zstd;

    public String workerValue() {
        return name();
    }
}
