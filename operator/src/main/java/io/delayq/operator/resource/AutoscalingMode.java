package io.delayq.operator.resource;

/** Who decides the replica count of the worker Deployments. */
public enum AutoscalingMode {
    /** The operator, from each Deployment's due backlog. */
    Internal,
    /** An HPA or KEDA, through the DelayQueue's scale subresource (spec.replicas). */
    External,
    /** A person, through spec.replicas. */
    Disabled
}
