package io.delayq.operator.resource;

/** Kubernetes image pull policies. */
public enum PullPolicy {
    Always, IfNotPresent, Never
}
