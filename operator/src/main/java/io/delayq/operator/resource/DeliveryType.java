package io.delayq.operator.resource;

import java.util.Locale;

/** Delivery targets; {@link #workerValue()} is the worker's DELAYQ_DELIVERY value. */
public enum DeliveryType {
    Handler, Webhook, Stream;

    public String workerValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
