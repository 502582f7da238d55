package io.delayq.operator.testing;

import io.delayq.operator.resource.BasicAuthSecretRef;
import io.delayq.operator.resource.ClientCertificateSecretRef;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.KafkaCompression;
import io.delayq.operator.resource.KafkaSaslMechanism;
import io.delayq.operator.resource.KafkaSecurityProtocol;
import io.delayq.operator.resource.KafkaSpec;
import io.delayq.operator.resource.OutboxBackstopSpec;
import io.delayq.operator.resource.OutboxSpec;
import io.delayq.operator.resource.TlsCaSecretRef;

/** Kafka deliveries and outboxes for tests. */
public final class Deliveries {
    private Deliveries() {
    }

    /** Only what the resource must say: brokers and topic. */
    public static DeliverySpec kafka() {
        KafkaSpec kafka = new KafkaSpec();
        kafka.setBootstrapServers("kafka-0.kafka:9092,kafka-1.kafka:9092");
        kafka.setTopic("orders.due");
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Kafka);
        delivery.setKafka(kafka);
        return delivery;
    }

    /**
     * Every Kafka field set away from its default: SASL_SSL with SCRAM credentials from Secret {@code kafka-auth}
     * (keys {@code user}, {@code pass}), the CA from {@code kafka-ca} (key {@code ca.pem}) and a client certificate
     * from {@code kafka-client} (keys {@code chain.pem}, {@code key.pem}).
     */
    public static DeliverySpec kafkaWithEverything() {
        DeliverySpec delivery = kafka();
        KafkaSpec kafka = delivery.getKafka();
        kafka.setTimeout("3s");
        kafka.setClientId("payouts-producer");
        kafka.setCompression(KafkaCompression.zstd);
        kafka.setSecurityProtocol(KafkaSecurityProtocol.SASL_SSL);
        kafka.setSaslMechanism(KafkaSaslMechanism.SCRAM_SHA_512);
        BasicAuthSecretRef credentials = new BasicAuthSecretRef("kafka-auth");
        credentials.setUsernameKey("user");
        credentials.setPasswordKey("pass");
        kafka.setCredentialsSecret(credentials);
        TlsCaSecretRef ca = new TlsCaSecretRef("kafka-ca");
        ca.setKey("ca.pem");
        kafka.setTlsCaSecret(ca);
        ClientCertificateSecretRef client = new ClientCertificateSecretRef("kafka-client");
        client.setCertKey("chain.pem");
        client.setKeyKey("key.pem");
        kafka.setTlsClientSecret(client);
        return delivery;
    }

    /** Only the database. */
    public static OutboxSpec outbox() {
        OutboxSpec outbox = new OutboxSpec();
        outbox.setJdbcUrl("jdbc:postgresql://db.shop.svc:5432/shop");
        return outbox;
    }

    /** Every outbox field set away from its default; credentials from Secret {@code shop-db} (keys {@code login}, {@code secret}). */
    public static OutboxSpec outboxWithEverything() {
        OutboxSpec outbox = outbox();
        BasicAuthSecretRef credentials = new BasicAuthSecretRef("shop-db");
        credentials.setUsernameKey("login");
        credentials.setPasswordKey("secret");
        outbox.setCredentialsSecret(credentials);
        outbox.setBatchSize(200);
        outbox.setPollInterval("250ms");
        outbox.setRetryDelay("2s");
        OutboxBackstopSpec backstop = new OutboxBackstopSpec();
        backstop.setQuery("SELECT 'order-' || id || '-timeout' AS task_id, placed_at + interval '30 minutes' AS due_at FROM orders WHERE status = 'unpaid'");
        backstop.setInterval("10m");
        outbox.setBackstop(backstop);
        return outbox;
    }

    /** {@link #outboxWithEverything()} with its relay in a Deployment of its own: 2 replicas, given resources. */
    public static OutboxSpec outboxInItsOwnDeployment() {
        OutboxSpec outbox = outboxWithEverything();
        io.delayq.operator.resource.OutboxRelaySpec relay = new io.delayq.operator.resource.OutboxRelaySpec();
        relay.setMode(io.delayq.operator.resource.OutboxRelayMode.Deployment);
        relay.setReplicas(2);
        relay.setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("20m"))
                .addToLimits("memory", new io.fabric8.kubernetes.api.model.Quantity("300Mi")).build());
        outbox.setRelay(relay);
        return outbox;
    }
}
