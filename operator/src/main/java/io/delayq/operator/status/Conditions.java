package io.delayq.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Kubernetes-style conditions: lastTransitionTime moves only when the status flips. */
public final class Conditions {
    public static final String READY = "Ready";
    public static final String PROGRESSING = "Progressing";
    public static final String DEGRADED = "Degraded";
    public static final String PAUSED = "Paused";

    private Conditions() {
    }

    public static Condition next(List<Condition> previous, String type, boolean status, String reason, String message,
                                 long generation, Instant now) {
        String value = status ? "True" : "False";
        String since = find(previous, type).filter(c -> value.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime).orElse(now.toString());
        return new ConditionBuilder().withType(type).withStatus(value).withReason(reason)
                // No message rather than an empty one: Fabric8 sends "" as null, which a real API server refuses (422)
                .withMessage(message == null || message.isEmpty() ? null : message).withObservedGeneration(generation)
                .withLastTransitionTime(since).build();
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null ? Optional.empty() : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    static List<Condition> list(Condition... conditions) {
        return new ArrayList<>(List.of(conditions));
    }
}
