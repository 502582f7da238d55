package io.delayq.app.worker;

import io.delayq.worker.Worker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

/**
 * The outbox relay's meters, published through the current worker's registry: a worker started anew
 * (after a layout change) gets them too, the previous one lets them go.
 */
final class RelayMeters {
    private final CompositeMeterRegistry composite = new CompositeMeterRegistry();
    private MeterRegistry current;

    synchronized Worker follow(Worker worker) {
        if (current != null) {
            composite.remove(current);
        }
        current = worker.registry();
        composite.add(current);
        return worker;
    }

    MeterRegistry registry() {
        return composite;
    }
}
