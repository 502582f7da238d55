package io.delayq.worker.delivery;

import io.delayq.settings.Settings;
import io.delayq.settings.WorkerSettings;
import io.delayq.worker.config.WorkerConfig;

/**
 * A delivery that lives in a module of its own (delayq-delivery-kafka), so that the worker library carries none of
 * its dependencies. The worker finds it with {@link java.util.ServiceLoader} by the name {@code DELAYQ_DELIVERY}
 * gives ({@code META-INF/services/io.delayq.worker.delivery.DeliveryProvider}): putting the module's jar on the
 * class path is all it takes.
 */
public interface DeliveryProvider {
    /** The value of {@code DELAYQ_DELIVERY} that selects this delivery, in lower case ({@code kafka}). */
    String name();

    /** {@code DELAYQ_CONCURRENCY} when it is not set: how many deliveries one worker runs at once. */
    default int defaultConcurrency() {
        return WorkerSettings.DEFAULT_CONCURRENCY;
    }

    /**
     * Reads and checks the delivery's own settings while the worker reads its configuration, before it connects to
     * anything; a bad value is a {@link io.delayq.settings.ConfigException} naming its variable and the rule.
     *
     * @param worker the worker's own settings, already checked (its {@code provided()} is still null)
     */
    ProvidedDelivery configure(Settings settings, WorkerConfig worker);
}
