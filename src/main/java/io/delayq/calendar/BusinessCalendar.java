package io.delayq.calendar;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delayq.InvalidInputException;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A named business calendar: the working weekdays in a time zone, minus holiday dates. A day is a
 * business day when its weekday is a working one and its date is no holiday; every moment of a
 * business day is a business moment. Stored as canonical JSON ({@link #toJson}) in
 * {@code dq:{q}:calendars}, where the clients in every language and the workers' schedule planners read it.
 */
public record BusinessCalendar(String name, ZoneId zone, Set<DayOfWeek> weekdays, SortedSet<LocalDate> holidays) {
    public static final int MAX_NAME_LENGTH = 63;
    public static final int MAX_HOLIDAYS = 1000;
    public static final LocalDate FIRST_DATE = LocalDate.of(1970, 1, 1);
    public static final LocalDate LAST_DATE = LocalDate.of(9999, 12, 31);
    public static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern REGION = Pattern.compile("[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final List<String> DAY_NAMES = List.of("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN");
    private static final ObjectMapper JSON = new ObjectMapper();

    public BusinessCalendar {
        requireName(name);
        if (zone == null) {
            throw new InvalidInputException("timeZone", "must not be empty (an IANA zone such as Europe/Berlin, or UTC)");
        }
        // offsets (+02:00, UTC+1) are no IANA zone: the Python, Node and Go libraries could not read them
        if (zone instanceof java.time.ZoneOffset || !REGION.matcher(zone.getId()).matches()) {
            throw new InvalidInputException("timeZone", "must be an IANA time zone such as Europe/Berlin or UTC, got \"" + zone.getId() + "\"");
        }
        if (weekdays == null || weekdays.isEmpty()) {
            throw new InvalidInputException("weekdays", "must name at least one working weekday (MON … SUN)");
        }
        weekdays = java.util.Collections.unmodifiableSet(EnumSet.copyOf(weekdays));
        holidays = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(holidays == null ? Set.of() : holidays));
        if (holidays.size() > MAX_HOLIDAYS) {
            throw new InvalidInputException("holidays", "must hold at most " + MAX_HOLIDAYS + " dates, got " + holidays.size());
        }
        for (LocalDate d : holidays) {
            if (d.isBefore(FIRST_DATE) || d.isAfter(LAST_DATE)) {
                throw new InvalidInputException("holidays", "dates must be between " + FIRST_DATE + " and " + LAST_DATE + ", got " + d);
            }
        }
    }

    /** Monday to Friday in {@code timeZone}, no holidays. */
    public static BusinessCalendar weekdays(String name, String timeZone) {
        return new BusinessCalendar(name, zone(timeZone), EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY), null);
    }

    public BusinessCalendar holidays(Collection<LocalDate> dates) {
        return new BusinessCalendar(name, zone, weekdays, new TreeSet<>(dates));
    }

    public BusinessCalendar workingDays(Set<DayOfWeek> days) {
        return new BusinessCalendar(name, zone, days, holidays);
    }

    public boolean isBusinessDay(LocalDate date) {
        return weekdays.contains(date.getDayOfWeek()) && !holidays.contains(date);
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

    public static ZoneId zone(String timeZone) {
        if (timeZone == null || timeZone.isBlank()) {
            throw new InvalidInputException("timeZone", "must not be empty (an IANA zone such as Europe/Berlin, or UTC)");
        }
        try {
            return ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new InvalidInputException("timeZone", "must be an IANA time zone such as Europe/Berlin or UTC, got \"" + timeZone + "\"");
        }
    }

    public static DayOfWeek weekday(String text) {
        int i = text == null ? -1 : DAY_NAMES.indexOf(text.toUpperCase(Locale.ROOT));
        if (i < 0) {
            throw new InvalidInputException("weekdays", "each must be one of MON, TUE, WED, THU, FRI, SAT, SUN, got \"" + text + "\"");
        }
        return DayOfWeek.of(i + 1);
    }

    public static LocalDate date(String field, String text) {
        if (text == null || !DATE.matcher(text).matches()) {
            throw new InvalidInputException(field, "dates must be written YYYY-MM-DD, got \"" + text + "\"");
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(field, "\"" + text + "\" is not a date of the calendar");
        }
    }

    /** Canonical JSON: {@code {"name","timeZone","weekdays":[MON…],"holidays":[sorted dates]}}; equal calendars, equal text. */
    public String toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", name);
        o.put("timeZone", zone.getId());
        ArrayNode days = o.putArray("weekdays");
        weekdays.stream().sorted().forEach(d -> days.add(DAY_NAMES.get(d.getValue() - 1)));
        ArrayNode dates = o.putArray("holidays");
        holidays.forEach(d -> dates.add(d.toString()));
        return o.toString();
    }

    public static BusinessCalendar fromJson(String json) {
        JsonNode o;
        try {
            o = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidInputException("calendar", "is not valid JSON: " + e.getOriginalMessage());
        }
        if (o == null || !o.isObject()) {
            throw new InvalidInputException("calendar", "must be a JSON object");
        }
        for (var it = o.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!List.of("name", "timeZone", "weekdays", "holidays").contains(f)) {
                throw new InvalidInputException(f, "is not a calendar field (name, timeZone, weekdays, holidays)");
            }
        }
        String name = o.path("name").isTextual() ? o.get("name").asText() : null;
        String tz = o.path("timeZone").isTextual() ? o.get("timeZone").asText() : null;
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String d : strings(o, "weekdays")) {
            days.add(weekday(d));
        }
        List<String> holidayText = strings(o, "holidays");
        if (holidayText.size() > MAX_HOLIDAYS) {
            throw new InvalidInputException("holidays", "must hold at most " + MAX_HOLIDAYS + " dates, got " + holidayText.size());
        }
        TreeSet<LocalDate> dates = new TreeSet<>();
        for (String d : holidayText) {
            dates.add(date("holidays", d));
        }
        requireName(name);
        return new BusinessCalendar(name, zone(tz), days, dates);
    }

    private static List<String> strings(JsonNode o, String field) {
        JsonNode a = o.get(field);
        if (a == null || a.isNull()) {
            return List.of();
        }
        if (!a.isArray()) {
            throw new InvalidInputException(field, "must be a JSON array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode n : a) {
            if (!n.isTextual()) {
                throw new InvalidInputException(field, "must be a JSON array of strings");
            }
            out.add(n.asText());
        }
        return out;
    }
}
