package io.delayq.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.resource.BasicAuthSecretRef;
import io.delayq.operator.resource.ClientCertificateSecretRef;
import io.delayq.operator.resource.KafkaSpec;
import io.delayq.operator.resource.OutboxBackstopSpec;
import io.delayq.operator.resource.OutboxSpec;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DeadLetterSpec;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.RetrySpec;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.resource.WebhookSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java field initializers and the schema's defaults agree, so the operator behaves the same on
 * a resource the API server defaulted and on one it did not (the mock server, older objects).
 */
class CrdDefaultsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static JsonNode spec;

    @BeforeAll
    static void load() throws IOException {
        spec = new CrdValidator(CrdFiles.committed()).openApi().at("/properties/spec");
    }

    static Stream<Arguments> objects() {
        return Stream.of(
                Arguments.of("spec", "", new DelayQueueSpec()),
                Arguments.of("spec.retry", "/properties/retry", new RetrySpec()),
                Arguments.of("spec.deadLetter", "/properties/deadLetter", new DeadLetterSpec()),
                Arguments.of("spec.delivery", "/properties/delivery", new DeliverySpec()),
                Arguments.of("spec.delivery.webhook", "/properties/delivery/properties/webhook", new WebhookSpec()),
                Arguments.of("spec.delivery.kafka", "/properties/delivery/properties/kafka", new KafkaSpec()),
                Arguments.of("spec.delivery.kafka.credentialsSecret", "/properties/delivery/properties/kafka/properties/credentialsSecret",
                        new BasicAuthSecretRef()),
                Arguments.of("spec.delivery.kafka.tlsCaSecret", "/properties/delivery/properties/kafka/properties/tlsCaSecret", new TlsCaSecretRef()),
                Arguments.of("spec.delivery.kafka.tlsClientSecret", "/properties/delivery/properties/kafka/properties/tlsClientSecret",
                        new ClientCertificateSecretRef()),
                Arguments.of("spec.outbox", "/properties/outbox", new OutboxSpec()),
                Arguments.of("spec.outbox.credentialsSecret", "/properties/outbox/properties/credentialsSecret", new BasicAuthSecretRef()),
                Arguments.of("spec.outbox.backstop", "/properties/outbox/properties/backstop", new OutboxBackstopSpec()),
                Arguments.of("spec.redis.credentialsSecret", "/properties/redis/properties/credentialsSecret", new CredentialsSecretRef()),
                Arguments.of("spec.redis.tlsCaSecret", "/properties/redis/properties/tlsCaSecret", new TlsCaSecretRef()),
                Arguments.of("spec.autoscaling", "/properties/autoscaling", new AutoscalingSpec()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("objects")
    void javaDefaultsEqualSchemaDefaults(String name, String pointer, Object fresh) {
        JsonNode schema = spec.at(pointer);
        JsonNode java = JSON.valueToTree(fresh);
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, JsonNode> p : (Iterable<Map.Entry<String, JsonNode>>) () -> schema.path("properties").fields()) {
            if (p.getValue().has("default")) {
                JsonNode schemaDefault = p.getValue().get("default");
                JsonNode javaDefault = java.get(p.getKey());
                assertThat(javaDefault).as(name + "." + p.getKey() + " default in Java").isNotNull();
                assertThat(javaDefault.isNumber() ? javaDefault.asDouble() : javaDefault.asText())
                        .as(name + "." + p.getKey())
                        .isEqualTo(schemaDefault.isNumber() ? schemaDefault.asDouble() : schemaDefault.asText());
                checked.add(p.getKey());
            }
        }
        assertThat(checked).as(name + " has defaults to compare").isNotEmpty();
    }
}
