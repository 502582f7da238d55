package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;

/** Where a fired task goes. The target's settings sit under the key named after the type. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.type != 'Webhook' || has(self.webhook)",
        message = "spec.delivery.type Webhook needs spec.delivery.webhook.url")
@ValidationRule(value = "self.type != 'Stream' || has(self.stream)",
        message = "spec.delivery.type Stream needs spec.delivery.stream.key (the Redis Stream that fired tasks are added to)")
@ValidationRule(value = "self.type != 'Kafka' || has(self.kafka)",
        message = "spec.delivery.type Kafka needs spec.delivery.kafka.bootstrapServers and spec.delivery.kafka.topic")
public class DeliverySpec {
    @JsonPropertyDescription("Handler (a TaskHandler in the worker image), Webhook (HTTP POST), Stream (XADD to a Redis Stream) "
            + "or Kafka (a record to a Kafka topic).")
    @Default("Handler")
    private DeliveryType type = DeliveryType.Handler;

    @JsonPropertyDescription("Settings of the Handler delivery.")
    private HandlerSpec handler;

    @JsonPropertyDescription("Settings of the Webhook delivery.")
    private WebhookSpec webhook;

    @JsonPropertyDescription("Settings of the Stream delivery.")
    private StreamSpec stream;

    @JsonPropertyDescription("Settings of the Kafka delivery.")
    private KafkaSpec kafka;

    public DeliveryType getType() {
        return type;
    }

    public void setType(DeliveryType type) {
        this.type = type;
    }

    public HandlerSpec getHandler() {
        return handler;
    }

    public void setHandler(HandlerSpec handler) {
        this.handler = handler;
    }

    public WebhookSpec getWebhook() {
        return webhook;
    }

    public void setWebhook(WebhookSpec webhook) {
        this.webhook = webhook;
    }

    public StreamSpec getStream() {
        return stream;
    }

    public void setStream(StreamSpec stream) {
        this.stream = stream;
    }

    public KafkaSpec getKafka() {
        return kafka;
    }

    public void setKafka(KafkaSpec kafka) {
        this.kafka = kafka;
    }
}
