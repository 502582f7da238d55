package io.delayq.operator.schedules;

import io.delayq.InvalidInputException;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.ScheduleSpec;
import io.delayq.schedule.CalendarRule;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.MisfirePolicy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schedule definitions a DelayQueue asks for, as core's {@link CronSchedule}s owned by the
 * operator. A schedule the core rejects (a cron the schema's shape check let through, an unknown
 * zone) becomes a problem naming it and is left out: its definition in Redis, if any, stays as it was.
 *
 * @param declared  every name in spec.schedules, valid or not (names the operator must not remove)
 * @param calendars schedule name → the business calendar it keeps to, which {@link ScheduleSync} reads from Redis
 */
public record DesiredSchedules(List<CronSchedule> schedules, List<String> declared, List<Problem> problems,
                               Map<String, CalendarChoice> calendars) {

    /** A schedule's calendar by name, with its rule. */
    public record CalendarChoice(String calendar, CalendarRule rule) {
    }

    public DesiredSchedules(List<CronSchedule> schedules, List<String> declared, List<Problem> problems) {
        this(schedules, declared, problems, Map.of());
    }

    public static final String OWNER = "operator";

    public static DesiredSchedules of(DelayQueueSpec spec) {
        List<CronSchedule> out = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        Map<String, CalendarChoice> calendars = new LinkedHashMap<>();
        if (spec.getSchedules() == null) {
            return new DesiredSchedules(out, names, problems);
        }
        for (ScheduleSpec s : spec.getSchedules()) {
            names.add(s.getName());
            try {
                out.add(new CronSchedule(s.getName(), s.getCron(), s.getTimeZone(), s.getPayload(), s.getPriority(),
                        instant(s.getStart(), "start"), instant(s.getEnd(), "end"),
                        s.getMisfirePolicy() == null ? null : MisfirePolicy.fromWire(s.getMisfirePolicy().name()),
                        s.getMisfireLimit(), s.isSuspend(), OWNER));
                if (s.getCalendar() != null) {
                    calendars.put(s.getName(), new CalendarChoice(io.delayq.calendar.BusinessCalendar.requireName(s.getCalendar()),
                            s.getCalendarRule() == null ? CalendarRule.SKIP : CalendarRule.fromWire(s.getCalendarRule().name())));
                } else if (s.getCalendarRule() != null) {
                    throw new InvalidInputException("calendarRule", "needs a calendar");
                }
            } catch (InvalidInputException e) {
                problems.add(new Problem(Reason.INVALID_SCHEDULE, "spec.schedules[" + s.getName() + "]." + e.getMessage()
                        + "; the schedule is not applied (Redis keeps its previous definition, if any)"));
            }
        }
        return new DesiredSchedules(out, names, problems, calendars);
    }

    private static Instant instant(String text, String field) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (RuntimeException e) {
            throw new InvalidInputException(field, "must be an RFC 3339 instant such as 2027-01-01T00:00:00Z, got \"" + text + "\"");
        }
    }
}
