package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The outbox relay's own Deployment (spec.outbox.relay.mode Deployment): its size and whether it is ready. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OutboxRelayStatus {
    @JsonPropertyDescription("Name of the Deployment.")
    private String name;

    @JsonPropertyDescription("Replicas the operator asked for (spec.outbox.relay.replicas).")
    private int replicas;

    @JsonPropertyDescription("Pods that pass their readiness probe.")
    private int readyReplicas;

    @JsonPropertyDescription("True once the Deployment has its desired pods, updated and ready.")
    private boolean ready;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public int getReadyReplicas() {
        return readyReplicas;
    }

    public void setReadyReplicas(int readyReplicas) {
        this.readyReplicas = readyReplicas;
    }

    public boolean isReady() {
        return ready;
    }

    public void setReady(boolean ready) {
        this.ready = ready;
    }
}
