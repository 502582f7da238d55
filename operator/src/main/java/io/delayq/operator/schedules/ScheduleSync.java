package io.delayq.operator.schedules;

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
        for (CronSchedule s : desired.schedules()) {
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
