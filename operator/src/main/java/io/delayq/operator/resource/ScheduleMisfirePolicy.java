package io.delayq.operator.resource;

/** Quartz's misfire vocabulary, as io.delayq.schedule.MisfirePolicy spells it on the wire. */
public enum ScheduleMisfirePolicy {
    /** The occurrences missed while no worker ran collapse into one, fired at once. */
    fireOnceNow,
    /** Missed occurrences are skipped. */
    doNothing,
    /** Each missed occurrence fires, the latest misfireLimit of them. */
    fireAllMissed
}
