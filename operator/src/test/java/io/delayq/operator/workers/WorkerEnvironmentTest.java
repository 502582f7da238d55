package io.delayq.operator.workers;

import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.HandlerSpec;
import io.delayq.operator.resource.RateLimitSpec;
import io.delayq.operator.resource.SecretKeyRef;
import io.delayq.operator.resource.StreamSpec;
import io.delayq.operator.resource.WebhookSpec;
import io.delayq.operator.resource.WorkerSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.Deliveries;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerEnvironmentTest {
    private static final ShardRange RANGE = new ShardRange(0, 3);

    private static Map<String, String> values(DelayQueue dq) {
        return WorkerEnvironment.of(dq, RANGE).stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    @Test
    void setsEveryContractVariableWithTheSpecDefaults() {
        Map<String, String> env = values(DelayQueues.orders());

        assertThat(env).containsEntry("DELAYQ_BATCH_SIZE", "500").containsEntry("DELAYQ_POLL_INTERVAL", "1s")
                .containsEntry("DELAYQ_LEASE", "30s").containsEntry("DELAYQ_HANDLER_TIMEOUT", "30m")
                .containsEntry("DELAYQ_RETRY_MAX_ATTEMPTS", "5").containsEntry("DELAYQ_RETRY_BACKOFF_INITIAL", "1s")
                .containsEntry("DELAYQ_RETRY_BACKOFF_MAX", "5m").containsEntry("DELAYQ_RETRY_BACKOFF_MULTIPLIER", "2.0")
                .containsEntry("DELAYQ_RETRY_JITTER", "0.2").containsEntry("DELAYQ_DEAD_LETTER_MAX_COUNT", "100000")
                .containsEntry("DELAYQ_DEAD_LETTER_MAX_AGE", "14d").containsEntry("DELAYQ_DELIVERY", "handler")
                .containsEntry("DELAYQ_SHUTDOWN_GRACE", "30s").containsEntry("DELAYQ_HTTP_PORT", "8080");
        // unset optional fields write nothing, so the worker's own defaults apply and an operator upgrade rolls no pod
        // (DELAYQ_CONCURRENCY too: the worker's default depends on the delivery type)
        assertThat(env).doesNotContainKeys("DELAYQ_CONCURRENCY", "DELAYQ_RATE_LIMIT", "DELAYQ_REDIS_PASSWORD", "DELAYQ_WEBHOOK_URL", "DELAYQ_HANDLER_PATH",
                "DELAYQ_SCHEDULE_INTERVAL", "DELAYQ_SCHEDULE_HORIZON", "DELAYQ_SCHEDULE_MISFIRE_THRESHOLD",
                "DELAYQ_RESULTS_KEEP", "DELAYQ_RESULTS_MAX_PER_SHARD");
    }

    @Test
    void resultsBecomeTheCompletionRecordVariables() {
        DelayQueue dq = DelayQueues.orders();
        io.delayq.operator.resource.ResultsSpec results = new io.delayq.operator.resource.ResultsSpec();
        results.setKeep("2h");
        dq.getSpec().setResults(results);
        assertThat(values(dq)).containsEntry("DELAYQ_RESULTS_KEEP", "2h").containsEntry("DELAYQ_RESULTS_MAX_PER_SHARD", "10000");
    }

    @Test
    void webhookDeliveryReferencesItsSigningSecret() {
        DelayQueue dq = DelayQueues.orders();
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Webhook);
        WebhookSpec webhook = new WebhookSpec();
        webhook.setUrl("https://orders.example.com/timeouts");
        webhook.setSigningSecret(new SecretKeyRef("hook-secret", "hmac"));
        delivery.setWebhook(webhook);
        dq.getSpec().setDelivery(delivery);

        List<EnvVar> env = WorkerEnvironment.of(dq, RANGE);

        assertThat(values(dq)).containsEntry("DELAYQ_DELIVERY", "webhook")
                .containsEntry("DELAYQ_WEBHOOK_URL", "https://orders.example.com/timeouts")
                .containsEntry("DELAYQ_WEBHOOK_TIMEOUT", "10s");
        EnvVar secret = env.stream().filter(e -> e.getName().equals("DELAYQ_WEBHOOK_SECRET")).findFirst().orElseThrow();
        assertThat(secret.getValue()).isNull();
        assertThat(secret.getValueFrom().getSecretKeyRef().getName()).isEqualTo("hook-secret");
        assertThat(secret.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("hmac");
    }

    @Test
    void streamAndHandlerDeliveriesPassTheirSettings() {
        DelayQueue dq = DelayQueues.orders();
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Stream);
        StreamSpec stream = new StreamSpec();
        stream.setKey("payouts:ready");
        stream.setMaxLength(1000L);
        delivery.setStream(stream);
        dq.getSpec().setDelivery(delivery);
        assertThat(values(dq)).containsEntry("DELAYQ_DELIVERY", "stream").containsEntry("DELAYQ_STREAM_KEY", "payouts:ready")
                .containsEntry("DELAYQ_STREAM_MAXLEN", "1000");

        delivery.setType(DeliveryType.Handler);
        HandlerSpec handler = new HandlerSpec();
        handler.setClassName("com.example.Expire");
        delivery.setHandler(handler);
        assertThat(values(dq)).containsEntry("DELAYQ_DELIVERY", "handler").containsEntry("DELAYQ_HANDLER", "com.example.Expire")
                .doesNotContainKey("DELAYQ_STREAM_KEY");
    }

    @Test
    void rateLimitIsFleetWide() {
        DelayQueue dq = DelayQueues.orders();
        RateLimitSpec rate = new RateLimitSpec();
        rate.setPerSecond(250.0);
        rate.setBurst(500);
        dq.getSpec().setRateLimit(rate);

        assertThat(values(dq)).containsEntry("DELAYQ_RATE_LIMIT", "250.0").containsEntry("DELAYQ_RATE_BURST", "500");
    }

    @Test
    void userVariablesComeLastAndCannotOverrideTheContract() {
        DelayQueue dq = DelayQueues.orders();
        WorkerSpec worker = new WorkerSpec();
        worker.setEnv(List.of(new EnvVarBuilder().withName("JAVA_OPTS").withValue("-Xmx300m").build(),
                new EnvVarBuilder().withName("DELAYQ_QUEUE").withValue("someone-elses").build()));
        dq.getSpec().setWorker(worker);

        List<EnvVar> env = WorkerEnvironment.of(dq, RANGE);

        assertThat(env.get(env.size() - 1).getName()).isEqualTo("JAVA_OPTS");
        assertThat(env).filteredOn(e -> e.getName().equals("DELAYQ_QUEUE")).singleElement()
                .extracting(EnvVar::getValue).isEqualTo("orders");
    }

    @Test
    void aPrivateCaIsAFilePathNotTheCertificate() {
        DelayQueue dq = DelayQueues.of("orders", 8, 4, "rediss://redis.shop.svc:6380/0");
        dq.getSpec().getRedis().setTlsCaSecret(new io.delayq.operator.resource.TlsCaSecretRef("redis-ca"));

        assertThat(values(dq)).containsEntry("DELAYQ_REDIS_TLS_CA", RedisTlsCa.FILE);
        assertThat(values(DelayQueues.orders())).doesNotContainKey("DELAYQ_REDIS_TLS_CA");
    }

    @Test
    void queueNameDefaultsToTheResourceName() {
        DelayQueue dq = DelayQueues.orders();
        assertThat(values(dq)).containsEntry("DELAYQ_QUEUE", "orders");

        dq.getSpec().setQueueName("order-timeouts");
        assertThat(values(dq)).containsEntry("DELAYQ_QUEUE", "order-timeouts");
    }

    /** Each variable that comes from a Secret, as Secret name/key: the pod spec holds the reference, never the value. */
    private static Map<String, String> secretRefs(DelayQueue dq) {
        return WorkerEnvironment.of(dq, RANGE).stream().filter(e -> e.getValueFrom() != null).collect(Collectors.toMap(EnvVar::getName, e -> {
            SecretKeySelector ref = e.getValueFrom().getSecretKeyRef();
            assertThat(e.getValue()).as(e.getName()).isNull();
            assertThat(ref.getOptional()).as("%s: no pod without its Secret", e.getName()).isFalse();
            return ref.getName() + "/" + ref.getKey();
        }));
    }

    @Test
    void kafkaDeliveryWritesEveryKafkaVariableSecretsByReferenceAndTlsAsFiles() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setDelivery(Deliveries.kafkaWithEverything());

        assertThat(values(dq)).containsEntry("DELAYQ_DELIVERY", "kafka")
                .containsEntry("DELAYQ_KAFKA_BOOTSTRAP_SERVERS", "kafka-0.kafka:9092,kafka-1.kafka:9092")
                .containsEntry("DELAYQ_KAFKA_TOPIC", "orders.due")
                .containsEntry("DELAYQ_KAFKA_TIMEOUT", "3s")
                .containsEntry("DELAYQ_KAFKA_CLIENT_ID", "payouts-producer")
                .containsEntry("DELAYQ_KAFKA_COMPRESSION", "zstd")
                .containsEntry("DELAYQ_KAFKA_SECURITY_PROTOCOL", "sasl_ssl")
                .containsEntry("DELAYQ_KAFKA_SASL_MECHANISM", "SCRAM-SHA-512")
                .containsEntry("DELAYQ_KAFKA_TLS_CA", "/etc/delayq/kafka-tls-ca/ca.crt")
                .containsEntry("DELAYQ_KAFKA_TLS_CERT", "/etc/delayq/kafka-tls-client/tls.crt")
                .containsEntry("DELAYQ_KAFKA_TLS_KEY", "/etc/delayq/kafka-tls-client/tls.key")
                .doesNotContainKeys("DELAYQ_KAFKA_USERNAME", "DELAYQ_KAFKA_PASSWORD", "DELAYQ_CONCURRENCY");
        assertThat(secretRefs(dq)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "DELAYQ_KAFKA_USERNAME", "kafka-auth/user", "DELAYQ_KAFKA_PASSWORD", "kafka-auth/pass"));
    }

    @Test
    void kafkaFieldsLeftOutWriteNothingSoTheWorkersDefaultsApply() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setDelivery(Deliveries.kafka());

        Map<String, String> env = values(dq);
        assertThat(env).containsEntry("DELAYQ_DELIVERY", "kafka").containsEntry("DELAYQ_KAFKA_TIMEOUT", "10s");
        assertThat(env).doesNotContainKeys("DELAYQ_KAFKA_CLIENT_ID", "DELAYQ_KAFKA_COMPRESSION", "DELAYQ_KAFKA_SECURITY_PROTOCOL",
                "DELAYQ_KAFKA_SASL_MECHANISM", "DELAYQ_KAFKA_TLS_CA", "DELAYQ_KAFKA_TLS_CERT", "DELAYQ_KAFKA_TLS_KEY",
                // the worker's default for Kafka (256), not the operator's guess
                "DELAYQ_CONCURRENCY");
        assertThat(secretRefs(dq)).isEmpty();
    }

    @Test
    void kafkaSettingsOfAnotherDeliveryTypeAreNotWritten() {
        DelayQueue dq = DelayQueues.orders();
        DeliverySpec delivery = Deliveries.kafkaWithEverything();
        delivery.setType(DeliveryType.Stream);
        StreamSpec stream = new StreamSpec();
        stream.setKey("orders:ready");
        delivery.setStream(stream);
        dq.getSpec().setDelivery(delivery);

        assertThat(values(dq).keySet()).noneMatch(name -> name.startsWith("DELAYQ_KAFKA_"));
        assertThat(secretRefs(dq)).isEmpty();
    }

    @Test
    void anOutboxGivesEveryWorkerARelayWithItsCredentialsByReference() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setOutbox(Deliveries.outboxWithEverything());

        assertThat(values(dq)).containsEntry("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db.shop.svc:5432/shop")
                .containsEntry("DELAYQ_OUTBOX_BATCH_SIZE", "200")
                .containsEntry("DELAYQ_OUTBOX_POLL_INTERVAL", "250ms")
                .containsEntry("DELAYQ_OUTBOX_RETRY_DELAY", "2s")
                .containsEntry("DELAYQ_OUTBOX_BACKSTOP_QUERY", Deliveries.outboxWithEverything().getBackstop().getQuery())
                .containsEntry("DELAYQ_OUTBOX_BACKSTOP_INTERVAL", "10m")
                .doesNotContainKeys("DELAYQ_OUTBOX_USER", "DELAYQ_OUTBOX_PASSWORD");
        assertThat(secretRefs(dq)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "DELAYQ_OUTBOX_USER", "shop-db/login", "DELAYQ_OUTBOX_PASSWORD", "shop-db/secret"));
    }

    @Test
    void anOutboxWithDefaultsAndNoBackstop() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setOutbox(Deliveries.outbox());

        assertThat(values(dq)).containsEntry("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db.shop.svc:5432/shop")
                .containsEntry("DELAYQ_OUTBOX_BATCH_SIZE", "500").containsEntry("DELAYQ_OUTBOX_POLL_INTERVAL", "1s")
                .containsEntry("DELAYQ_OUTBOX_RETRY_DELAY", "1s")
                .doesNotContainKeys("DELAYQ_OUTBOX_BACKSTOP_QUERY", "DELAYQ_OUTBOX_BACKSTOP_INTERVAL");
        assertThat(secretRefs(dq)).isEmpty();
        assertThat(values(DelayQueues.orders()).keySet()).as("no outbox, no relay").noneMatch(name -> name.startsWith("DELAYQ_OUTBOX_"));
    }
}
