package io.delayq.delivery.kafka;

import io.delayq.DurationText;
import io.delayq.redis.RedisEndpoint;
import io.delayq.settings.ConfigException;
import io.delayq.settings.Settings;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.delivery.ProvidedDelivery;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import static io.delayq.settings.WorkerSettings.*;

/**
 * Where and how the Kafka delivery produces, checked when the worker reads its configuration. The producer is
 * idempotent with {@code acks=all}: a record counts as sent only once every in-sync replica has it, and the
 * producer's own retries within {@link #timeout} never write it twice.
 */
public record KafkaTarget(String bootstrapServers, String topic, Duration timeout, String clientId, String compression,
                          KafkaAccess access) implements ProvidedDelivery {
    /** Kafka's own rule for topic names. */
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final Pattern SERVER = Pattern.compile("(\\[[0-9a-fA-F:.]+]|[^\\s:,\\[\\]]+):(\\d{1,5})");
    static final List<String> COMPRESSIONS = List.of("none", "gzip", "snappy", "lz4", "zstd");
    /** How long the producer waits to fill a batch: the slots' records of a few milliseconds go out together. */
    static final Duration LINGER = Duration.ofMillis(5);

    public static KafkaTarget read(Settings s, WorkerConfig worker) {
        String servers = s.string(KAFKA_BOOTSTRAP_SERVERS);
        if (servers == null) {
            throw new ConfigException(KAFKA_BOOTSTRAP_SERVERS.name(), "is required when DELAYQ_DELIVERY=kafka (e.g. kafka-0.kafka:9092,kafka-1.kafka:9092)");
        }
        for (String server : servers.split(",", -1)) {
            var m = SERVER.matcher(server.trim());
            if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
                throw new ConfigException(KAFKA_BOOTSTRAP_SERVERS.name(), "must be a comma-separated list of host:port (port 1 to 65535), got '" + servers + "'");
            }
        }
        String topic = s.string(KAFKA_TOPIC);
        if (topic == null) {
            throw new ConfigException(KAFKA_TOPIC.name(), "is required when DELAYQ_DELIVERY=kafka (e.g. orders.due)");
        }
        if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new ConfigException(KAFKA_TOPIC.name(), "must be a Kafka topic name: 1 to 249 letters, digits, '.', '_' or '-', and not '.' or '..', got '" + topic + "'");
        }
        String compression = s.check(KAFKA_COMPRESSION.name(), s.string(KAFKA_COMPRESSION.name(), "none").toLowerCase(Locale.ROOT),
                COMPRESSIONS::contains, "must be one of " + String.join(", ", COMPRESSIONS));
        return new KafkaTarget(servers.replace(" ", ""), topic, s.get(KAFKA_TIMEOUT),
                s.string(KAFKA_CLIENT_ID.name(), "delayq-" + worker.queue()), compression, KafkaAccess.read(s));
    }

    @Override
    public String name() {
        return KafkaDeliveryProvider.NAME;
    }

    @Override
    public Delivery open(RedisEndpoint redis) {
        return new KafkaDelivery(this);
    }

    /** The producer's configuration. */
    public Map<String, Object> producerProperties() {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        p.put(ProducerConfig.LINGER_MS_CONFIG, (int) LINGER.toMillis());
        // the whole send within the timeout: waiting for metadata (max.block.ms), then the acknowledgement, retries
        // included (delivery.timeout.ms, which Kafka wants at least linger.ms + request.timeout.ms)
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1, timeout.toMillis() - LINGER.toMillis()));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        // a broker that is down is tried again soon after it is back, not after the default 1 s back-off growing to 10 s
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        access.applyTo(p);
        return p;
    }

    /** For the start-up line: no secret in it. */
    String describe() {
        return "Kafka topic " + topic + " at " + bootstrapServers + " (acks=all, idempotent, " + access.describe()
                + (compression.equals("none") ? "" : ", " + compression) + ", time-out " + DurationText.format(timeout) + ")";
    }
}
