package io.delayq.schedule;

import java.util.List;

/**
 * The keys of a queue's recurring schedules. They share the queue's own hash tag {@code {q}} (with
 * {@code dq:{q}:meta}), so the schedule scripts touch one slot; the occurrences they plan are ordinary
 * tasks on the shard keys {@code dq:{q:i}:…}, another slot, written by the ordinary enqueue script.
 */
public record ScheduleKeys(String queue) {

    /** HASH name → {@code <revision>|<updatedAt ms>|<definition JSON>} ({@link StoredSchedule}). */
    public String definitions() {
        return "dq:{" + queue + "}:schedules";
    }

    /** HASH name → planner state JSON ({@link PlanState}). */
    public String state() {
        return "dq:{" + queue + "}:schedules:state";
    }

    /**
     * ZSET name → when a planner must next look at the schedule (epoch ms): a planning turn reads only
     * the schedules due here, not every definition.
     */
    public String index() {
        return "dq:{" + queue + "}:schedules:due";
    }

    /** Definitions, states and index: the KEYS of schedule_put and schedule_advance. */
    public List<String> all() {
        return List.of(definitions(), state(), index());
    }
}
