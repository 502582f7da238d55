package io.delayq.schedule;

import io.delayq.calendar.BusinessCalendar;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keeps the calendar copies inside schedule definitions equal to the queue's calendars. A schedule stores
 * the calendar it keeps to (so that every planner computes the same occurrences from the definition alone);
 * when a calendar is put again, each schedule that names it is put again with the new copy. That is a
 * changed definition: a new revision, whose planning cancels the occurrences planned under the old days
 * and plans them anew.
 */
public final class ScheduleCalendars {
    private static final int ATTEMPTS = 5;
    private final ScheduleStore store;

    public ScheduleCalendars(ScheduleStore store) {
        this.store = store;
    }

    /** Re-puts the schedules that name {@code calendar} with a different copy; answers their names. */
    public List<String> refresh(BusinessCalendar calendar) {
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, String> e : store.definitions().entrySet()) {
            for (int i = 0; i < ATTEMPTS; i++) {
                String raw = i == 0 ? e.getValue() : store.definition(e.getKey());
                if (raw == null) {
                    break;
                }
                StoredSchedule s = StoredSchedule.parse(raw);
                CronSchedule d = s.definition();
                if (d.calendar() == null || !d.calendar().name().equals(calendar.name()) || d.calendar().equals(calendar)) {
                    break;
                }
                PutResult r = store.put(d.calendar(calendar, d.calendarRule()), s.revision());
                if (r.status() != PutResult.Status.CONFLICT) {
                    changed.add(e.getKey());
                    break;
                }
            }
        }
        return changed;
    }
}
