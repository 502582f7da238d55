package io.delayq.operator.resource;

import java.util.Locale;

/**
 * Delivery targets; {@link #workerValue()} is the worker's DELAYQ_DELIVERY value. Kafka is a delivery module
 * (delayq-delivery-kafka), which the stock worker image carries.
 */
public enum DeliveryType {
    Handler, Webhook, Stream, Kafka;

    public String workerValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
