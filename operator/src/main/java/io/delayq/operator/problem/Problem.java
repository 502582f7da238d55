package io.delayq.operator.problem;

/**
 * Something wrong that only shows at run time, found by any part of the operator (the Secret check,
 * the look at Redis, the schedules, the worker pods) and reported by the status: the reason becomes
 * the Degraded condition's reason and the Event's reason, the message is for a person and never holds
 * a secret value. Its own package, so that what finds problems and what reports them both point here
 * and not at each other.
 */
public record Problem(Reason reason, String message) {

    /** The condition's and the Event's {@code reason}, as Kubernetes writes them. */
    public String reasonText() {
        return reason.text();
    }
}
