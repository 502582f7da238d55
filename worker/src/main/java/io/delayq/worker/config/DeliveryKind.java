package io.delayq.worker.config;

/** Where due tasks go. */
public enum DeliveryKind {
    /** An in-process {@code TaskHandler} found by ServiceLoader (custom worker images). */
    HANDLER,
    /** An HTTP POST per task (Cloud Tasks style). */
    WEBHOOK,
    /** An XADD to a ready stream for consumer groups (the "transfer queue" pattern). */
    STREAM,
    /** A delivery module found by the name in {@code DELAYQ_DELIVERY} ({@code DeliveryProvider}), such as {@code kafka}. */
    PROVIDED
}
