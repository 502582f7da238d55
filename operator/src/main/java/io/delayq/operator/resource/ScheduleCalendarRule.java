package io.delayq.operator.resource;

/** What a schedule on a business calendar does with an occurrence off its business days, as io.delayq.schedule.CalendarRule spells it. */
public enum ScheduleCalendarRule {
    /** The occurrence does not happen (Quartz's calendar semantics). */
    skip,
    /** The occurrence fires once at the start of the next business day. */
    roll
}
