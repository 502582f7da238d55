package io.delayq.schedule;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delayq.InvalidInputException;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.task.Priority;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * A recurring task: every occurrence of {@code cron} in {@code timeZone} (between the optional
 * {@code start} and {@code end}) becomes an ordinary task with the id {@link OccurrenceId} and this
 * schedule's payload and priority. (Not to be confused with {@link io.delayq.task.Schedule}, the due
 * time of one task.)
 *
 * @param misfireLimit for {@link MisfirePolicy#FIRE_ALL_MISSED}: at most this many missed occurrences fire
 * @param managedBy    who owns the definition: {@code "operator"} for those declared in a DelayQueue
 *                     resource (the operator removes them when the resource drops them), else null
 * @param calendar     the business calendar its occurrences keep to, as stored in {@code dq:{q}:calendars} when the
 *                     schedule was put (a copy: a changed calendar is a changed definition, see {@link ScheduleCalendars}), or null
 * @param calendarRule what an occurrence off the calendar's business days does (null without a calendar)
 */
public record CronSchedule(String name, String cron, String timeZone, String payload, int priority, Instant start, Instant end,
                           MisfirePolicy misfirePolicy, int misfireLimit, boolean paused, String managedBy,
                           BusinessCalendar calendar, CalendarRule calendarRule) {
    public static final int MAX_NAME_LENGTH = 63;
    public static final int DEFAULT_MISFIRE_LIMIT = 10;
    public static final int MAX_MISFIRE_LIMIT = 1000;
    public static final int MAX_PAYLOAD_BYTES = 64 * 1024;
    /** A DNS label: no ':' so that {@link OccurrenceId} parses back unambiguously. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final ObjectMapper JSON = new ObjectMapper();

    public CronSchedule {
        requireName(name);
        CronTimes.parse(cron);
        if (timeZone == null) {
            timeZone = "UTC";
        }
        CronTimes.zone(timeZone);
        Priority.require(priority);
        if (payload != null && payload.getBytes(StandardCharsets.UTF_8).length > MAX_PAYLOAD_BYTES) {
            throw new InvalidInputException("payload", "must be at most " + MAX_PAYLOAD_BYTES + " bytes of UTF-8");
        }
        if (start != null && end != null && !end.isAfter(start)) {
            throw new InvalidInputException("end", "must be after start (" + start + "), got " + end);
        }
        if (misfirePolicy == null) {
            misfirePolicy = MisfirePolicy.FIRE_ONCE_NOW;
        }
        if (misfireLimit == 0) {
            misfireLimit = DEFAULT_MISFIRE_LIMIT;
        }
        if (misfireLimit < 1 || misfireLimit > MAX_MISFIRE_LIMIT) {
            throw new InvalidInputException("misfireLimit", "must be between 1 and " + MAX_MISFIRE_LIMIT + ", got " + misfireLimit);
        }
        if (calendar == null && calendarRule != null) {
            throw new InvalidInputException("calendarRule", "needs a calendar");
        }
        if (calendar != null && calendarRule == null) {
            calendarRule = CalendarRule.SKIP;
        }
    }

    public CronSchedule(String name, String cron, String timeZone, String payload, int priority, Instant start, Instant end,
                        MisfirePolicy misfirePolicy, int misfireLimit, boolean paused, String managedBy) {
        this(name, cron, timeZone, payload, priority, start, end, misfirePolicy, misfireLimit, paused, managedBy, null, null);
    }

    /** A schedule in UTC with the defaults: normal priority, no payload, fire-once-now on misfire. */
    public static CronSchedule of(String name, String cron) {
        return new CronSchedule(name, cron, "UTC", null, Priority.NORMAL, null, null, null, 0, false, null);
    }

    public static String requireName(String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidInputException("name", "must not be empty");
        }
        if (name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
            throw new InvalidInputException("name", "must be a DNS label (lower-case letters, digits and '-', at most "
                    + MAX_NAME_LENGTH + " characters, starting and ending with a letter or digit), got \"" + name + "\"");
        }
        return name;
    }

    public CronSchedule timeZone(String zone) {
        return new CronSchedule(name, cron, zone, payload, priority, start, end, misfirePolicy, misfireLimit, paused, managedBy, calendar, calendarRule);
    }

    public CronSchedule payload(String text) {
        return new CronSchedule(name, cron, timeZone, text, priority, start, end, misfirePolicy, misfireLimit, paused, managedBy, calendar, calendarRule);
    }

    public CronSchedule priority(int level) {
        return new CronSchedule(name, cron, timeZone, payload, level, start, end, misfirePolicy, misfireLimit, paused, managedBy, calendar, calendarRule);
    }

    public CronSchedule window(Instant from, Instant until) {
        return new CronSchedule(name, cron, timeZone, payload, priority, from, until, misfirePolicy, misfireLimit, paused, managedBy, calendar, calendarRule);
    }

    public CronSchedule misfire(MisfirePolicy policy, int limit) {
        return new CronSchedule(name, cron, timeZone, payload, priority, start, end, policy, limit, paused, managedBy, calendar, calendarRule);
    }

    public CronSchedule paused(boolean value) {
        return new CronSchedule(name, cron, timeZone, payload, priority, start, end, misfirePolicy, misfireLimit, value, managedBy, calendar, calendarRule);
    }

    public CronSchedule managedBy(String owner) {
        return new CronSchedule(name, cron, timeZone, payload, priority, start, end, misfirePolicy, misfireLimit, paused, owner, calendar, calendarRule);
    }

    /** Keeps to a business calendar: occurrences off its business days are skipped or rolled ({@link CalendarRule}). */
    public CronSchedule calendar(BusinessCalendar businessCalendar, CalendarRule rule) {
        return new CronSchedule(name, cron, timeZone, payload, priority, start, end, misfirePolicy, misfireLimit, paused, managedBy,
                businessCalendar, businessCalendar == null ? null : rule);
    }

    public CronTimes times() {
        CronTimes times = CronTimes.of(cron, timeZone);
        return calendar == null ? times : times.on(calendar, calendarRule);
    }

    /** The canonical JSON stored in Redis: equal definitions give equal strings (an unchanged put is a no-op). */
    public String toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", name);
        o.put("cron", cron);
        o.put("timeZone", timeZone);
        if (payload != null) {
            o.put("payload", payload);
        }
        o.put("priority", priority);
        if (start != null) {
            o.put("start", start.toString());
        }
        if (end != null) {
            o.put("end", end.toString());
        }
        o.put("misfirePolicy", misfirePolicy.wire());
        o.put("misfireLimit", misfireLimit);
        o.put("paused", paused);
        if (managedBy != null) {
            o.put("managedBy", managedBy);
        }
        if (calendar != null) {
            try {
                o.set("calendar", JSON.readTree(calendar.toJson()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            o.put("calendarRule", calendarRule.wire());
        }
        return o.toString();
    }

    public static CronSchedule fromJson(String json) {
        JsonNode o;
        try {
            o = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidInputException("schedule", "is not valid JSON: " + e.getOriginalMessage());
        }
        if (o == null || !o.isObject()) {
            throw new InvalidInputException("schedule", "must be a JSON object");
        }
        return new CronSchedule(text(o, "name"), text(o, "cron"), text(o, "timeZone"), text(o, "payload"),
                o.path("priority").asInt(0), instant(o, "start"), instant(o, "end"),
                o.hasNonNull("misfirePolicy") ? MisfirePolicy.fromWire(text(o, "misfirePolicy")) : null,
                o.path("misfireLimit").asInt(0), o.path("paused").asBoolean(false), text(o, "managedBy"),
                o.hasNonNull("calendar") ? BusinessCalendar.fromJson(o.get("calendar").toString()) : null,
                o.hasNonNull("calendarRule") ? CalendarRule.fromWire(text(o, "calendarRule")) : null);
    }

    private static String text(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).asText() : null;
    }

    private static Instant instant(JsonNode o, String field) {
        String v = text(o, field);
        if (v == null) {
            return null;
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(field, "must be an ISO-8601 instant such as 2027-01-01T00:00:00Z, got \"" + v + "\"");
        }
    }
}
