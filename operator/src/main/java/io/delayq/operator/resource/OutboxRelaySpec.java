package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * Where the relay of {@code spec.outbox} runs. Workers (the default): every worker replica runs one. Deployment: the
 * operator runs {@code delayq outbox-relay} in a Deployment {@code <name>-outbox-relay} of {@code replicas} pods, and
 * the workers get no outbox settings. Relays take disjoint batches ({@code FOR UPDATE SKIP LOCKED}), so any number is safe.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.mode == 'Deployment' || !has(self.resources)",
        message = "spec.outbox.relay.resources applies to mode Deployment only: in mode Workers the relay runs inside the worker pods "
                + "(spec.worker.resources)")
@ValidationRule(value = "self.mode == 'Deployment' || self.replicas == 1",
        message = "spec.outbox.relay.replicas applies to mode Deployment only: in mode Workers every worker replica runs a relay")
public class OutboxRelaySpec {
    public static final int MAX_REPLICAS = 10;

    @JsonPropertyDescription("Workers (default): every worker replica runs a relay. Deployment: a Deployment <name>-outbox-relay runs the "
            + "relay, and the workers need no database access.")
    @Default("Workers")
    private OutboxRelayMode mode = OutboxRelayMode.Workers;

    @JsonPropertyDescription("Deployment mode: relay pods (1-10). More than one only adds availability: relays take disjoint batches.")
    @Default("1")
    @Min(1)
    @Max(MAX_REPLICAS)
    private int replicas = 1;

    @JsonPropertyDescription("Deployment mode: the relay container's resources (default: requests cpu 50m, memory 192Mi; limit memory 384Mi).")
    private ResourceRequirements resources;

    public OutboxRelayMode getMode() {
        return mode;
    }

    public void setMode(OutboxRelayMode mode) {
        this.mode = mode;
    }

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public ResourceRequirements getResources() {
        return resources;
    }

    public void setResources(ResourceRequirements resources) {
        this.resources = resources;
    }

    /** Whether the relay of {@code outbox} runs in a Deployment of its own (false without an outbox). */
    public static boolean ownDeployment(OutboxSpec outbox) {
        return outbox != null && outbox.getRelay() != null && outbox.getRelay().getMode() == OutboxRelayMode.Deployment;
    }
}
