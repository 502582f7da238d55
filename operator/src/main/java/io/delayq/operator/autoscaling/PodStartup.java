package io.delayq.operator.autoscaling;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * How long a queue's worker pods took to start, as the cluster reports it: from a pod's creation to its Ready
 * condition, which covers scheduling, the image pull, the JVM start and the worker's first connection to Redis (its
 * readiness probe). The longest of the pods that count, so the lead time covers the slowest start seen.
 * <p>
 * A pod counts when it is Ready, none of its containers restarted, and it is not being deleted. A Ready transition
 * more than {@link ForecastPolicy#MAX_WARMUP} after creation is taken as readiness that came back after a flap, not
 * a start, and is left out.
 */
public final class PodStartup {

    private PodStartup() {
    }

    public static Optional<Duration> longest(List<Pod> pods) {
        return pods.stream().map(PodStartup::of).flatMap(Optional::stream).max(Duration::compareTo);
    }

    static Optional<Duration> of(Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getCreationTimestamp() == null
                || pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null) {
            return Optional.empty();
        }
        List<ContainerStatus> containers = pod.getStatus().getContainerStatuses();
        if (containers != null && containers.stream().anyMatch(c -> c.getRestartCount() != null && c.getRestartCount() > 0)) {
            return Optional.empty();
        }
        List<PodCondition> conditions = pod.getStatus().getConditions();
        if (conditions == null) {
            return Optional.empty();
        }
        return conditions.stream()
                .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()) && c.getLastTransitionTime() != null)
                .findFirst()
                .flatMap(ready -> between(pod.getMetadata().getCreationTimestamp(), ready.getLastTransitionTime()));
    }

    private static Optional<Duration> between(String created, String ready) {
        try {
            Duration startup = Duration.between(Instant.parse(created), Instant.parse(ready));
            return startup.isNegative() || startup.compareTo(ForecastPolicy.MAX_WARMUP) > 0 ? Optional.empty() : Optional.of(startup);
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
