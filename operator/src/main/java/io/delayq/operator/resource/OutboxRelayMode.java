package io.delayq.operator.resource;

/** Where the outbox relay of a DelayQueue runs (docs/outbox.md, "Where the relay runs"). */
public enum OutboxRelayMode {
    /** Inside every worker replica: nothing more to run; the relays scale with the workers. */
    Workers,
    /** In a Deployment of its own, {@code <name>-outbox-relay}: workers without database access, relay replicas and resources of their own. */
    Deployment
}
