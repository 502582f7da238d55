package io.delayq.console.schedules;

import io.delayq.console.queues.QueueDirectory;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.ScheduleStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a queue's recurring schedules. Read through core's {@code Schedules} (the schedule
 * store's own API), never its raw keys, so that a change in how the store indexes definitions or
 * occurrences does not break the console.
 */
public final class ScheduleViews {
    private final QueueDirectory queues;

    public ScheduleViews(QueueDirectory queues) {
        this.queues = queues;
    }

    public Map<String, Object> list(String queue) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ScheduleStatus s : io.delayq.schedule.Schedules.of(queues.client(queue)).list()) {
            rows.add(row(s));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queue", queue);
        out.put("schedules", rows);
        return out;
    }

    static Map<String, Object> row(ScheduleStatus s) {
        CronSchedule d = s.definition();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.name());
        m.put("cron", d.cron());
        m.put("timeZone", d.timeZone());
        m.put("paused", d.paused());
        m.put("nextFire", millis(s.nextFire()));
        m.put("lastFired", millis(s.lastFired()));
        m.put("lastTaskId", s.lastTaskId());
        m.put("lastOutcome", s.lastOutcome().wire());
        m.put("missed", s.missed());
        m.put("late", s.late());
        m.put("revision", s.revision());
        m.put("planned", s.planned());
        m.put("misfirePolicy", d.misfirePolicy().wire());
        m.put("managedBy", d.managedBy());
        m.put("calendar", d.calendar() == null ? null : d.calendar().name());
        m.put("calendarRule", d.calendarRule() == null ? null : d.calendarRule().wire());
        return m;
    }

    private static Long millis(Instant i) {
        return i == null ? null : i.toEpochMilli();
    }
}
