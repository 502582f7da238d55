package io.delayq.console.calendars;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.actions.ActionAnswer;
import io.delayq.console.actions.ActionLog;
import io.delayq.console.http.ApiException;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.StoredSchedule;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's calendar actions, confirm-then-act as every action: {@code calendar-put} (body {@code calendar}: the
 * calendar's JSON) and {@code calendar-delete} (body {@code name}). The preview names the schedules that keep to it.
 */
public final class CalendarActions {
    private final ActionLog log;

    public CalendarActions(ActionLog log) {
        this.log = log;
    }

    public Map<String, Object> put(DelayQueueClient c, JsonNode body, boolean confirm, String who) {
        JsonNode json = body.get("calendar");
        if (json == null || !json.isObject()) {
            throw new ApiException(400, "calendar", "must be a JSON object: name, timeZone, weekdays, holidays");
        }
        BusinessCalendar cal = BusinessCalendar.fromJson(json.toString());
        Calendars calendars = Calendars.of(c);
        Optional<BusinessCalendar> old = calendars.get(cal.name());
        List<String> users = schedulesOn(c, cal.name());
        if (old.isPresent() && old.get().equals(cal)) {
            throw new ApiException(409, "calendar", "calendar '" + cal.name() + "' is already stored exactly so");
        }
        String what = "calendar '" + cal.name() + "' (" + cal.zone().getId() + ", " + cal.weekdays().size() + " weekdays, "
                + cal.holidays().size() + " holidays)";
        if (!confirm) {
            String effect = users.isEmpty() ? "" : " The schedules that keep to it are planned again on the new days: their occurrences "
                    + "planned and not fired yet are cancelled and planned anew.";
            return ActionAnswer.preview("calendar-put", (old.isPresent() ? "Replace " : "Create ") + what + "? Tasks already enqueued keep their due time."
                    + effect, users.size(), users);
        }
        boolean created = calendars.put(cal);
        log.record(who, c.protocol().queue(), "calendar-put", "calendar " + cal.name(), created ? "created" : "replaced");
        return ActionAnswer.done("calendar-put", (created ? "Created " : "Replaced ") + what + ".", 1);
    }

    public Map<String, Object> delete(DelayQueueClient c, String name, boolean confirm, String who) {
        Calendars calendars = Calendars.of(c);
        if (calendars.get(BusinessCalendar.requireName(name)).isEmpty()) {
            throw ApiException.notFound("name", "no calendar '" + name + "' in queue '" + c.protocol().queue() + "'");
        }
        List<String> users = schedulesOn(c, name);
        if (!confirm) {
            return ActionAnswer.preview("calendar-delete", "Delete calendar '" + name + "'? Tasks already enqueued keep their due time"
                    + (users.isEmpty() ? "." : "; the schedules that keep to it go on with their copy of it."), users.size(), users);
        }
        boolean deleted = calendars.delete(name);
        log.record(who, c.protocol().queue(), "calendar-delete", "calendar " + name, deleted ? "deleted" : "absent");
        return ActionAnswer.done("calendar-delete", deleted ? "Deleted calendar '" + name + "'." : "Calendar '" + name + "' was already gone.", deleted ? 1 : 0);
    }

    private static List<String> schedulesOn(DelayQueueClient c, String calendar) {
        return io.delayq.schedule.Schedules.of(c).store().definitions().values().stream()
                .map(raw -> StoredSchedule.parse(raw).definition())
                .filter(d -> d.calendar() != null && d.calendar().name().equals(calendar))
                .map(CronSchedule::name).sorted().toList();
    }
}
