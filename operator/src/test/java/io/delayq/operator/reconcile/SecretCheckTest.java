package io.delayq.operator.reconcile;

import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.SecretKeyRef;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.resource.WebhookSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.Deliveries;
import io.delayq.operator.testing.FixtureCa;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SecretCheckTest {

    private static Secret secret(String name, String version, Map<String, String> values) {
        SecretBuilder b = new SecretBuilder().withNewMetadata().withName(name).withResourceVersion(version).endMetadata();
        values.forEach((k, v) -> b.addToData(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        return b.build();
    }

    private static DelayQueue withCredentials(String usernameKey) {
        DelayQueue dq = DelayQueues.orders();
        CredentialsSecretRef ref = new CredentialsSecretRef("shop-redis");
        ref.setUsernameKey(usernameKey);
        dq.getSpec().getRedis().setCredentialsSecret(ref);
        return dq;
    }

    @Test
    void readsTheCredentialsAndRemembersTheSecretVersion() {
        SecretCheck check = SecretCheck.of(withCredentials("user"),
                name -> secret(name, "42", Map.of("user", "queue-app", "password", "s3cr3t")));

        assertThat(check.problems()).isEmpty();
        assertThat(check.redisSecretsUsable()).isTrue();
        assertThat(check.credentials().username()).isEqualTo("queue-app");
        assertThat(check.credentials().password()).isEqualTo("s3cr3t");
        assertThat(check.versions()).containsEntry("shop-redis", "42");
    }

    @Test
    void aMissingSecretIsAProblemNamingTheFieldAndTheSecret() {
        SecretCheck check = SecretCheck.of(withCredentials(null), name -> null);

        assertThat(check.redisSecretsUsable()).isFalse();
        assertThat(check.problems()).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(Reason.SECRET_MISSING);
            assertThat(p.message()).contains("shop-redis", "spec.redis.credentialsSecret.name", "namespace 'shop'");
        });
    }

    @Test
    void aMissingKeyIsAProblemNamingTheKey() {
        SecretCheck check = SecretCheck.of(withCredentials("user"), name -> secret(name, "1", Map.of("password", "pw")));

        assertThat(check.redisSecretsUsable()).isFalse();
        assertThat(check.problems()).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(Reason.SECRET_KEY_MISSING);
            assertThat(p.message()).contains("'user'", "spec.redis.credentialsSecret.usernameKey");
        });
    }

    @Test
    void checksTheWebhookSigningSecretWithoutReadingItForRedis() {
        DelayQueue dq = DelayQueues.orders();
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Webhook);
        WebhookSpec webhook = new WebhookSpec();
        webhook.setUrl("https://x.example.com");
        webhook.setSigningSecret(new SecretKeyRef("hook", "hmac"));
        delivery.setWebhook(webhook);
        dq.getSpec().setDelivery(delivery);

        SecretCheck missing = SecretCheck.of(dq, name -> null);
        SecretCheck present = SecretCheck.of(dq, name -> secret(name, "7", Map.of("hmac", "k")));

        assertThat(missing.problems()).singleElement().satisfies(p -> assertThat(p.message()).contains("spec.delivery.webhook.signingSecret.name"));
        assertThat(missing.redisSecretsUsable()).as("Redis needs no credentials here").isTrue();
        assertThat(present.problems()).isEmpty();
        assertThat(present.versions()).containsEntry("hook", "7");
    }

    private static DelayQueue withTlsCa(String key) {
        DelayQueue dq = DelayQueues.of("orders", 8, 4, "rediss://redis.shop.svc:6380/0");
        TlsCaSecretRef ref = new TlsCaSecretRef("redis-ca");
        if (key != null) {
            ref.setKey(key);
        }
        dq.getSpec().getRedis().setTlsCaSecret(ref);
        return dq;
    }

    @Test
    void readsTheTlsCaUnderItsDefaultKeyAndRemembersTheSecretVersion() {
        String pem = FixtureCa.pem();
        SecretCheck check = SecretCheck.of(withTlsCa(null), name -> secret(name, "9", Map.of("ca.crt", pem, "tls.key", "not read")));

        assertThat(check.problems()).isEmpty();
        assertThat(check.redisSecretsUsable()).isTrue();
        assertThat(check.tlsCa()).isEqualTo(pem);
        assertThat(check.versions()).as("a rotated CA changes the config hash").containsEntry("redis-ca", "9");
    }

    @Test
    void aMissingTlsCaSecretIsAProblemNamingTheFieldAndKeepsTheOperatorFromConnecting() {
        SecretCheck check = SecretCheck.of(withTlsCa(null), name -> null);

        assertThat(check.redisSecretsUsable()).as("without the CA the TLS handshake would only fail").isFalse();
        assertThat(check.tlsCa()).isNull();
        assertThat(check.problems()).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(Reason.SECRET_MISSING);
            assertThat(p.message()).contains("redis-ca", "spec.redis.tlsCaSecret.name", "namespace 'shop'");
        });
    }

    @Test
    void aMissingTlsCaKeyIsAProblemNamingTheKey() {
        String pem = FixtureCa.pem();
        SecretCheck check = SecretCheck.of(withTlsCa("bundle.pem"), name -> secret(name, "3", Map.of("ca.crt", pem)));

        assertThat(check.redisSecretsUsable()).isFalse();
        assertThat(check.versions()).containsEntry("redis-ca", "3");
        assertThat(check.problems()).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(Reason.SECRET_KEY_MISSING);
            assertThat(p.message()).contains("'bundle.pem'", "spec.redis.tlsCaSecret.key");
        });
    }

    @Test
    void aTlsCaKeyWithoutACertificateIsAProblemNamingTheKey() {
        SecretCheck check = SecretCheck.of(withTlsCa(null), name -> secret(name, "4", Map.of("ca.crt", "-----BEGIN NONSENSE-----")));

        assertThat(check.redisSecretsUsable()).isFalse();
        assertThat(check.tlsCa()).isNull();
        assertThat(check.problems()).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(Reason.SECRET_KEY_INVALID);
            assertThat(p.message()).contains("redis-ca", "'ca.crt'", "spec.redis.tlsCaSecret.key", "PEM certificate")
                    .doesNotContain("NONSENSE");
        });
    }

    @Test
    void credentialsAndCaMayShareOneSecret() {
        DelayQueue dq = withTlsCa(null);
        dq.getSpec().getRedis().setTlsCaSecret(new TlsCaSecretRef("shop-redis"));
        dq.getSpec().getRedis().setCredentialsSecret(new CredentialsSecretRef("shop-redis"));
        String pem = FixtureCa.pem();

        SecretCheck check = SecretCheck.of(dq, name -> secret(name, "12", Map.of("password", "pw", "ca.crt", pem)));

        assertThat(check.problems()).isEmpty();
        assertThat(check.credentials().password()).isEqualTo("pw");
        assertThat(check.tlsCa()).isEqualTo(pem);
        assertThat(check.versions()).containsOnly(Map.entry("shop-redis", "12"));
    }

    @Test
    void noSecretReferencedNoProblem() {
        SecretCheck check = SecretCheck.of(DelayQueues.orders(), name -> {
            throw new AssertionError("nothing to look up");
        });

        assertThat(check.problems()).isEmpty();
        assertThat(check.credentials().present()).isFalse();
        assertThat(check.tlsCa()).isNull();
    }

    private static final String CLIENT_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIGYlVUSdnWyUfGqQmP5C8kS0kGeQ9mSOzRzjI6xyMcZ5\n-----END PRIVATE KEY-----\n";

    /** The Secrets {@link Deliveries#kafkaWithEverything} and {@link Deliveries#outboxWithEverything} name, complete. */
    private static Map<String, Secret> kafkaAndOutboxSecrets() {
        Map<String, Secret> secrets = new HashMap<>();
        secrets.put("kafka-auth", secret("kafka-auth", "21", Map.of("user", "producer", "pass", "pw")));
        secrets.put("kafka-ca", secret("kafka-ca", "22", Map.of("ca.pem", FixtureCa.pem())));
        secrets.put("kafka-client", secret("kafka-client", "23", Map.of("chain.pem", FixtureCa.pem(), "key.pem", CLIENT_KEY)));
        secrets.put("shop-db", secret("shop-db", "24", Map.of("login", "relay", "secret", "pg")));
        return secrets;
    }

    private static DelayQueue withKafkaAndOutbox() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setDelivery(Deliveries.kafkaWithEverything());
        dq.getSpec().setOutbox(Deliveries.outboxWithEverything());
        return dq;
    }

    @Test
    void kafkaAndOutboxSecretsThatExistAreVersionedSoARotationRollsTheWorkers() {
        Map<String, Secret> secrets = kafkaAndOutboxSecrets();
        SecretCheck check = SecretCheck.of(withKafkaAndOutbox(), secrets::get);

        assertThat(check.problems()).isEmpty();
        assertThat(check.versions()).containsOnly(Map.entry("kafka-auth", "21"), Map.entry("kafka-ca", "22"),
                Map.entry("kafka-client", "23"), Map.entry("shop-db", "24"));
        assertThat(check.redisSecretsUsable()).isTrue();
    }

    @Test
    void missingKafkaAndOutboxSecretsAreProblemsNamingTheirFields() {
        SecretCheck check = SecretCheck.of(withKafkaAndOutbox(), name -> null);

        assertThat(check.problems()).allSatisfy(p -> assertThat(p.reason()).isEqualTo(Reason.SECRET_MISSING))
                .extracting(p -> p.message()).satisfiesExactlyInAnyOrder(
                        m -> assertThat(m).contains("'kafka-auth'", "spec.delivery.kafka.credentialsSecret.name", "namespace 'shop'"),
                        m -> assertThat(m).contains("'kafka-ca'", "spec.delivery.kafka.tlsCaSecret.name"),
                        m -> assertThat(m).contains("'kafka-client'", "spec.delivery.kafka.tlsClientSecret.name"),
                        m -> assertThat(m).contains("'shop-db'", "spec.outbox.credentialsSecret.name"));
        assertThat(check.redisSecretsUsable()).as("Redis needs none of them").isTrue();
    }

    @Test
    void missingKeysAreProblemsNamingTheKeyAndTheField() {
        Map<String, Secret> secrets = kafkaAndOutboxSecrets();
        secrets.put("kafka-auth", secret("kafka-auth", "21", Map.of("user", "producer")));
        secrets.put("kafka-client", secret("kafka-client", "23", Map.of("chain.pem", FixtureCa.pem())));
        secrets.put("shop-db", secret("shop-db", "24", Map.of("secret", "pg")));

        SecretCheck check = SecretCheck.of(withKafkaAndOutbox(), secrets::get);

        assertThat(check.problems()).allSatisfy(p -> assertThat(p.reason()).isEqualTo(Reason.SECRET_KEY_MISSING))
                .extracting(p -> p.message()).satisfiesExactlyInAnyOrder(
                        m -> assertThat(m).contains("'kafka-auth'", "'pass'", "spec.delivery.kafka.credentialsSecret.passwordKey"),
                        m -> assertThat(m).contains("'kafka-client'", "'key.pem'", "spec.delivery.kafka.tlsClientSecret.keyKey"),
                        m -> assertThat(m).contains("'shop-db'", "'login'", "spec.outbox.credentialsSecret.usernameKey"));
    }

    @Test
    void kafkaTlsFilesTheWorkerCouldNotReadAreProblemsNamingTheKey() {
        Map<String, Secret> secrets = kafkaAndOutboxSecrets();
        secrets.put("kafka-ca", secret("kafka-ca", "22", Map.of("ca.pem", "not a certificate")));
        secrets.put("kafka-client", secret("kafka-client", "23", Map.of("chain.pem", FixtureCa.pem(),
                "key.pem", "-----BEGIN RSA PRIVATE KEY-----\nsecret\n-----END RSA PRIVATE KEY-----\n")));

        SecretCheck check = SecretCheck.of(withKafkaAndOutbox(), secrets::get);

        assertThat(check.problems()).allSatisfy(p -> assertThat(p.reason()).isEqualTo(Reason.SECRET_KEY_INVALID))
                .extracting(p -> p.message()).satisfiesExactlyInAnyOrder(
                        m -> assertThat(m).contains("'kafka-ca'", "'ca.pem'", "spec.delivery.kafka.tlsCaSecret.key", "PEM certificate"),
                        m -> assertThat(m).contains("'kafka-client'", "'key.pem'", "spec.delivery.kafka.tlsClientSecret.keyKey", "PKCS#8",
                                "privateKey.encoding PKCS8").doesNotContain("secret\n"));
    }

    @Test
    void kafkaSecretsOfAnotherDeliveryTypeAreNotLookedUp() {
        DelayQueue dq = DelayQueues.orders();
        DeliverySpec delivery = Deliveries.kafkaWithEverything();
        delivery.setType(DeliveryType.Handler);
        dq.getSpec().setDelivery(delivery);

        SecretCheck check = SecretCheck.of(dq, name -> {
            throw new AssertionError("nothing to look up, asked for " + name);
        });

        assertThat(check.problems()).isEmpty();
    }
}
