package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/** A shard-count migration as the operator last saw it in the queue's meta hash. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ReshardingStatus {
    @JsonPropertyDescription("The shard count tasks move from.")
    private int from;

    @JsonPropertyDescription("The shard count tasks move to.")
    private int to;

    @JsonPropertyDescription("Tasks moved to their new shard so far (the mover's count in the meta hash).")
    private long moved;

    @JsonPropertyDescription("Tasks still to look at or to move, as the mover last recorded it; -1 before its first count.")
    private long left = -1;

    @JsonPropertyDescription("from -> to, moved and left in one line, for kubectl get.")
    private String progress;

    @JsonPropertyDescription("True once the migration has finished (every task on its shard of the new layout).")
    private boolean finished;

    public ReshardingStatus() {
    }

    public ReshardingStatus(int from, int to, long moved, long left, boolean finished) {
        this.from = from;
        this.to = to;
        this.moved = moved;
        this.left = left;
        this.finished = finished;
        this.progress = finished ? from + "->" + to + " done, " + moved + " moved"
                : from + "->" + to + ", " + moved + " moved, " + (left < 0 ? "counting" : left + " left");
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

    public long getMoved() {
        return moved;
    }

    public void setMoved(long moved) {
        this.moved = moved;
    }

    public long getLeft() {
        return left;
    }

    public void setLeft(long left) {
        this.left = left;
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
        return o instanceof ReshardingStatus r && from == r.from && to == r.to && moved == r.moved && left == r.left
                && finished == r.finished && Objects.equals(progress, r.progress);
    }

    @Override
    public int hashCode() {
        return Objects.hash(from, to, moved, left, finished, progress);
    }
}
