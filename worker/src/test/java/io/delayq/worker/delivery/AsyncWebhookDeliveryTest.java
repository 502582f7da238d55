package io.delayq.worker.delivery;

import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;

import java.util.Map;

/**
 * Every webhook behaviour of {@link WebhookDeliveryTest} on the asynchronous path, whatever the machine (a worker
 * takes that path by itself only where the JVM's common pool has more than one thread, see
 * {@link WebhookDelivery#runsAsync}).
 */
class AsyncWebhookDeliveryTest extends WebhookDeliveryTest {
    @Override
    Worker start(Map<String, String> env) {
        WorkerConfig c = WorkerConfig.fromEnv(env);
        return workers.start(env, redis -> new WebhookDelivery(c.webhookUrl(), c.webhookTimeout(), c.webhookSecret(), c.results().on(), true));
    }
}
