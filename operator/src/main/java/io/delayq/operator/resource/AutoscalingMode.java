package io.delayq.operator.resource;

/** Who decides the replica count of the worker Deployments. */
public enum AutoscalingMode {
    /** The operator, from each Deployment's due backlog. */
    Internal,
    /**
     * The operator, from each Deployment's due backlog and its due forecast: the tasks that fall due within the
     * coming windows, so pods start before a wave instead of after it (docs/autoscaling.md).
     */
    Forecast,
    /** An HPA or KEDA, through the DelayQueue's scale subresource (spec.replicas). */
    External,
    /** A person, through spec.replicas. */
    Disabled
}
