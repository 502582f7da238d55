package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/** An upgrade of the queue to protocol 3 in place, as the operator's upgrade job last reported it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProtocolUpgradeStatus {
    @JsonPropertyDescription("The protocol the queue is upgraded from.")
    private int from;

    @JsonPropertyDescription("The protocol the queue is upgraded to.")
    private int to;

    @JsonPropertyDescription("Waiting tasks of protocol 2 that the upgrade's steps moved into protocol 3's buckets (claims and calls by id adopt others on their way).")
    private long waitingAdopted;

    @JsonPropertyDescription("Dead letters of protocol 2 that the upgrade's steps adopted.")
    private long deadAdopted;

    @JsonPropertyDescription("Tasks protocol 2 still held in flight at the last step (they finish under protocol 2's scripts); -1 before the first step.")
    private long inFlight = -1;

    @JsonPropertyDescription("The upgrade in one line, for kubectl get: running, waiting (and why), failed (and why), or done.")
    private String progress;

    @JsonPropertyDescription("True once nothing of protocol 2 is left in the queue.")
    private boolean finished;

    public ProtocolUpgradeStatus() {
    }

    public ProtocolUpgradeStatus(int from, int to, long waitingAdopted, long deadAdopted, long inFlight, String progress, boolean finished) {
        this.from = from;
        this.to = to;
        this.waitingAdopted = waitingAdopted;
        this.deadAdopted = deadAdopted;
        this.inFlight = inFlight;
        this.progress = progress;
        this.finished = finished;
    }

    public int getFrom() {
        return from;
    }

    public void setFrom(int from) {
        this.from = from;
    }

    public int getTo() {
        return to;
    }

    public void setTo(int to) {
        this.to = to;
    }

    public long getWaitingAdopted() {
        return waitingAdopted;
    }

    public void setWaitingAdopted(long waitingAdopted) {
        this.waitingAdopted = waitingAdopted;
    }

    public long getDeadAdopted() {
        return deadAdopted;
    }

    public void setDeadAdopted(long deadAdopted) {
        this.deadAdopted = deadAdopted;
    }

    public long getInFlight() {
        return inFlight;
    }

    public void setInFlight(long inFlight) {
        this.inFlight = inFlight;
    }

    public String getProgress() {
        return progress;
    }

    public void setProgress(String progress) {
        this.progress = progress;
    }

    public boolean isFinished() {
        return finished;
    }

    public void setFinished(boolean finished) {
        this.finished = finished;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtocolUpgradeStatus u && from == u.from && to == u.to && waitingAdopted == u.waitingAdopted
                && deadAdopted == u.deadAdopted && inFlight == u.inFlight && finished == u.finished && Objects.equals(progress, u.progress);
    }

    @Override
    public int hashCode() {
        return Objects.hash(from, to, waitingAdopted, deadAdopted, inFlight, progress, finished);
    }
}
