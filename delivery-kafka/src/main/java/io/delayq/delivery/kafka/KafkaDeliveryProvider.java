package io.delayq.delivery.kafka;

import io.delayq.settings.Settings;
import io.delayq.settings.WorkerSettings;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.DeliveryProvider;
import io.delayq.worker.delivery.ProvidedDelivery;

/** {@code DELAYQ_DELIVERY=kafka}, found by the worker through {@code META-INF/services}. */
public final class KafkaDeliveryProvider implements DeliveryProvider {
    public static final String NAME = "kafka";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultConcurrency() {
        return WorkerSettings.DEFAULT_KAFKA_CONCURRENCY;
    }

    @Override
    public ProvidedDelivery configure(Settings settings, WorkerConfig worker) {
        return KafkaTarget.read(settings, worker);
    }
}
