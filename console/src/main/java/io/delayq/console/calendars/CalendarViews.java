package io.delayq.console.calendars;

import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.BusinessTime;
import io.delayq.calendar.Calendars;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.queues.QueueDirectory;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON of a queue's business calendars: each as stored, with today's standing in its own zone. */
public final class CalendarViews {
    private final QueueDirectory queues;

    public CalendarViews(QueueDirectory queues) {
        this.queues = queues;
    }

    public Map<String, Object> list(String queue) {
        DelayQueueClient c = queues.client(queue);
        Instant now = Instant.ofEpochMilli(io.delayq.schedule.Schedules.of(c).store().serverNow());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (BusinessCalendar cal : Calendars.of(c).list()) {
            rows.add(row(cal, now));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queue", queue);
        out.put("calendars", rows);
        return out;
    }

    static Map<String, Object> row(BusinessCalendar cal, Instant now) {
        LocalDate today = LocalDate.ofInstant(now, cal.zone());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", cal.name());
        m.put("timeZone", cal.zone().getId());
        m.put("weekdays", cal.weekdays().stream().sorted().map(CalendarViews::day).toList());
        m.put("holidays", cal.holidays().stream().map(LocalDate::toString).toList());
        m.put("today", today.toString());
        m.put("businessToday", cal.isBusinessDay(today));
        m.put("nextBusinessDay", BusinessTime.nextBusinessDay(cal, today).toString());
        return m;
    }

    private static String day(DayOfWeek d) {
        return d.name().substring(0, 3);
    }
}
