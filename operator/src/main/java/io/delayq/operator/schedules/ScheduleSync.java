package io.delayq.operator.schedules;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.ScheduleStatus;
import io.delayq.schedule.Schedules;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes a DelayQueue's schedules to Redis, the one truth the workers plan from: a put per declared
 * schedule (a no-op when unchanged), a remove for each schedule the operator wrote earlier that the
 * resource no longer declares. Schedules added through the CLI or the client are left alone, unless
 * the resource declares the same name (then the resource's definition wins).
 */
public final class ScheduleSync {
    private ScheduleSync() {
    }

    /** @return every schedule of the queue that the resource declares, as Redis has it after the sync */
    public static List<ScheduleStatus> apply(Schedules schedules, DesiredSchedules desired) {
        return apply(schedules, desired, new java.util.ArrayList<>());
    }

    /**
     * As {@link #apply(Schedules, DesiredSchedules)}; a schedule whose calendar is not in Redis is not written (its previous
     * definition stays) and becomes a problem naming it.
     */
    public static List<ScheduleStatus> apply(Schedules schedules, DesiredSchedules desired, List<Problem> problems) {
        for (CronSchedule s : desired.schedules()) {
            DesiredSchedules.CalendarChoice choice = desired.calendars().get(s.name());
            if (choice != null) {
                var calendar = schedules.store().calendars().get(choice.calendar());
                if (calendar.isEmpty()) {
                    problems.add(new Problem(Reason.INVALID_SCHEDULE, "spec.schedules[" + s.name() + "].calendar: no calendar named \""
                            + choice.calendar() + "\" in Redis (create it with delayq calendar put " + choice.calendar()
                            + " --time-zone …); the schedule is not applied (Redis keeps its previous definition, if any)"));
                    continue;
                }
                s = s.calendar(calendar.get(), choice.rule());
            }
            schedules.put(s);
        }
        Set<String> declared = Set.copyOf(desired.declared());
        List<ScheduleStatus> all = schedules.list();
        for (ScheduleStatus s : all) {
            if (DesiredSchedules.OWNER.equals(s.definition().managedBy()) && !declared.contains(s.name())) {
                schedules.remove(s.name());
            }
        }
        return all.stream().filter(s -> declared.contains(s.name())).collect(Collectors.toList());
    }
}
