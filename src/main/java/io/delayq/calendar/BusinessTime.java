package io.delayq.calendar;

import io.delayq.InvalidInputException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Due times on a {@link BusinessCalendar}: pure functions of a calendar and an instant, computed the
 * same way by the Java, Python, Node and Go libraries (clients/protocol-vectors.json, "businessTime").
 * Local times map to instants as cron occurrences do: a time in a spring-forward gap moves later by the
 * gap's length, a time that happens twice takes its first (earlier) instant.
 */
public final class BusinessTime {
    public static final int MAX_BUSINESS_DAYS = 1000;
    /** With at least one weekday and at most {@link BusinessCalendar#MAX_HOLIDAYS} holidays, a business day comes within this many days. */
    private static final int MAX_SEARCH_DAYS = 7 * (BusinessCalendar.MAX_HOLIDAYS + 2);
    private static final Pattern TIME = Pattern.compile("\\d{2}:\\d{2}(:\\d{2})?");

    private BusinessTime() {
    }

    /**
     * {@code at} if it falls on a business day, else the start (local midnight, or the first instant of
     * the day where midnight is skipped) of the next business day.
     */
    public static Instant rollForward(BusinessCalendar calendar, Instant at) {
        LocalDate day = LocalDate.ofInstant(at, calendar.zone());
        if (calendar.isBusinessDay(day)) {
            return at;
        }
        return startOf(calendar, nextBusinessDay(calendar, day));
    }

    /**
     * At {@code time} on the {@code days}-th business day after {@code from}'s day. The day {@code from}
     * falls on counts as day 0 when it is a business day; asked on another day, the next business day
     * is day 0. With {@code days = 0}, a {@code time} already past on day 0 moves to the next business day:
     * the answer is never before {@code from}.
     */
    public static Instant afterBusinessDays(BusinessCalendar calendar, Instant from, int days, LocalTime time) {
        if (days < 0 || days > MAX_BUSINESS_DAYS) {
            throw new InvalidInputException("businessDays", "must be 0 to " + MAX_BUSINESS_DAYS + ", got " + days);
        }
        if (time == null) {
            throw new InvalidInputException("time", "must not be empty (a local time such as 10:00)");
        }
        LocalDate day = LocalDate.ofInstant(from, calendar.zone());
        if (!calendar.isBusinessDay(day)) {
            day = nextBusinessDay(calendar, day);
        }
        for (int i = 0; i < days; i++) {
            day = nextBusinessDay(calendar, day);
        }
        Instant due = instantOf(calendar, day, time);
        if (due.isBefore(from)) {
            due = instantOf(calendar, nextBusinessDay(calendar, day), time);
        }
        return due;
    }

    /** The first business day after {@code day}. */
    public static LocalDate nextBusinessDay(BusinessCalendar calendar, LocalDate day) {
        LocalDate d = day;
        for (int i = 0; i < MAX_SEARCH_DAYS; i++) {
            if (!d.isBefore(BusinessCalendar.LAST_DATE)) {
                break;
            }
            d = d.plusDays(1);
            if (calendar.isBusinessDay(d)) {
                return d;
            }
        }
        throw new InvalidInputException("dueAt", "calendar " + calendar.name() + " has no business day after " + day
                + " up to " + BusinessCalendar.LAST_DATE);
    }

    /** The last business day before {@code day}, if any since 1970. */
    public static Optional<LocalDate> previousBusinessDay(BusinessCalendar calendar, LocalDate day) {
        LocalDate d = day;
        for (int i = 0; i < MAX_SEARCH_DAYS && d.isAfter(BusinessCalendar.FIRST_DATE); i++) {
            d = d.minusDays(1);
            if (calendar.isBusinessDay(d)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /** The first instant of {@code day} in the calendar's zone. */
    public static Instant startOf(BusinessCalendar calendar, LocalDate day) {
        return instantOf(calendar, day, LocalTime.MIDNIGHT);
    }

    static Instant instantOf(BusinessCalendar calendar, LocalDate day, LocalTime time) {
        // ofLocal: a gap shifts later by its length, an overlap takes the earlier offset (the cron rule)
        return ZonedDateTime.ofLocal(LocalDateTime.of(day, time), calendar.zone(), null).toInstant();
    }

    /** {@code HH:MM} or {@code HH:MM:SS}, 24-hour. */
    public static LocalTime time(String text) {
        if (text == null || !TIME.matcher(text).matches()) {
            throw new InvalidInputException("time", "must be a local time HH:MM or HH:MM:SS (24-hour), got \"" + text + "\"");
        }
        try {
            return LocalTime.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidInputException("time", "must be a local time HH:MM or HH:MM:SS (24-hour), got \"" + text + "\"");
        }
    }
}
