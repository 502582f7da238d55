package io.delayq.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.delayq.InvalidInputException;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.BusinessTime;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The occurrences of a cron expression in a time zone, with wall-clock semantics across daylight
 * saving changes: every local time the expression names fires once.
 * <ul>
 *   <li>A local time inside a spring-forward gap fires at the instant it would have been had the
 *       clocks not jumped: shifted later by the gap's length (02:30 in a 02:00→03:00 gap fires at
 *       03:30 daylight time). An occurrence that lands on an instant already produced (03:30 itself)
 *       is the same occurrence and fires once.</li>
 *   <li>A local time that happens twice in an autumn overlap fires at its first (earlier-offset)
 *       instant only: 01:30 on the night clocks go back fires at 01:30 daylight time, not again an
 *       hour later.</li>
 * </ul>
 * cron-utils computes the local times (in a zone without DST, so its own DST handling never
 * applies: run against real zones, it skips a daily 02:30 on a spring-forward day); this class
 * maps them to instants with {@link ZonedDateTime#ofLocal}.
 */
public final class CronTimes {
    private static final CronParser FIVE_FIELDS = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    /** Spring 5.3's definition: seconds first, {@code ?}, and the macros @yearly … @hourly. */
    private static final CronParser SIX_FIELDS = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING53));
    /** Local-time loops are bounded: a gap or overlap spans hours at most, never a year of seconds. */
    private static final int MAX_STEPS = 100_000;

    private final ExecutionTime times;
    private final ZoneId zone;
    private final BusinessCalendar calendar;
    private final CalendarRule rule;

    private CronTimes(ExecutionTime times, ZoneId zone, BusinessCalendar calendar, CalendarRule rule) {
        this.times = times;
        this.zone = zone;
        this.calendar = calendar;
        this.rule = rule;
    }

    /**
     * These occurrences on a business calendar: those not on a business day are skipped or rolled to the
     * start of the next business day ({@link CalendarRule}).
     */
    public CronTimes on(BusinessCalendar businessCalendar, CalendarRule calendarRule) {
        return new CronTimes(times, zone, businessCalendar, calendarRule == null ? CalendarRule.SKIP : calendarRule);
    }

    public static CronTimes of(String cron, String timeZone) {
        return new CronTimes(ExecutionTime.forCron(parse(cron)), zone(timeZone), null, null);
    }

    public static Cron parse(String cron) {
        if (cron == null || cron.isBlank()) {
            throw new InvalidInputException("cron", "must not be empty");
        }
        String text = cron.trim();
        int fields = text.split("\\s+").length;
        CronParser parser;
        if (text.startsWith("@") || fields == 6) {
            parser = SIX_FIELDS;
        } else if (fields == 5) {
            parser = FIVE_FIELDS;
        } else {
            throw new InvalidInputException("cron", "must have 5 fields (minute hour day-of-month month day-of-week), "
                    + "6 (seconds first) or be a macro (@yearly, @monthly, @weekly, @daily, @midnight, @hourly), got \"" + cron + "\"");
        }
        try {
            return parser.parse(text).validate();
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("cron", "\"" + cron + "\" is not a valid expression: " + e.getMessage());
        }
    }

    public static ZoneId zone(String timeZone) {
        if (timeZone == null || timeZone.isBlank()) {
            throw new InvalidInputException("timeZone", "must not be empty (an IANA zone such as Europe/Berlin, or UTC)");
        }
        try {
            return ZoneId.of(timeZone);
        } catch (RuntimeException e) {
            throw new InvalidInputException("timeZone", "must be an IANA time zone such as Europe/Berlin or UTC, got \"" + timeZone + "\"");
        }
    }

    public ZoneId zone() {
        return zone;
    }

    /** The first occurrence strictly after {@code after}, if any. */
    public Optional<Instant> next(Instant after) {
        Optional<Instant> t = cronNext(after);
        if (calendar == null) {
            return t;
        }
        if (rule == CalendarRule.ROLL) {
            // rolling never moves earlier, so the rolled instant is after {@code after} too; the occurrences of
            // one closed stretch all roll to the same instant, and the next call starts after it
            return t.map(this::rolled);
        }
        for (int i = 0; i < MAX_STEPS && t.isPresent(); i++) {
            if (isBusiness(t.get())) {
                return t;
            }
            // jump over the closed stretch at once: an every-minute cron would otherwise walk it minute by minute
            t = cronNext(rolled(t.get()).minusMillis(1));
        }
        return Optional.empty();
    }

    private boolean isBusiness(Instant t) {
        return calendar.isBusinessDay(LocalDate.ofInstant(t, calendar.zone()));
    }

    private Instant rolled(Instant t) {
        return BusinessTime.rollForward(calendar, t);
    }

    /** The last instant before the closed stretch {@code t} falls in, or empty when no business day precedes it. */
    private Optional<Instant> beforeStretch(Instant t) {
        return BusinessTime.previousBusinessDay(calendar, LocalDate.ofInstant(t, calendar.zone()))
                .map(d -> BusinessTime.startOf(calendar, d.plusDays(1)).minusMillis(1));
    }

    private Optional<Instant> cronNext(Instant after) {
        // cron has whole seconds; cron-utils would carry the bound's fraction into its answers
        LocalDateTime local = LocalDateTime.ofInstant(after, zone).truncatedTo(ChronoUnit.SECONDS);
        for (int i = 0; i < MAX_STEPS; i++) {
            Optional<ZonedDateTime> n = times.nextExecution(local.atZone(ZoneOffset.UTC));
            if (n.isEmpty()) {
                return Optional.empty();
            }
            local = n.get().toLocalDateTime().truncatedTo(ChronoUnit.SECONDS);
            Instant at = instantOf(local);
            // a local time of the overlap's second pass maps to its first pass: already behind us
            if (at.isAfter(after)) {
                return Optional.of(at);
            }
        }
        return Optional.empty();
    }

    /** The occurrences after {@code after} up to and including {@code until}, at most {@code limit} of them. */
    public List<Instant> between(Instant after, Instant until, int limit) {
        List<Instant> out = new ArrayList<>();
        Optional<Instant> t = next(after);
        while (t.isPresent() && !t.get().isAfter(until) && out.size() < limit) {
            out.add(t.get());
            t = next(t.get());
        }
        return out;
    }

    /** The latest occurrence at or before {@code atOrBefore}, if any. */
    public Optional<Instant> previous(Instant atOrBefore) {
        Optional<Instant> p = cronPrevious(atOrBefore);
        if (calendar == null) {
            return p;
        }
        for (int i = 0; i < MAX_STEPS && p.isPresent(); i++) {
            if (isBusiness(p.get())) {
                return p;
            }
            if (rule == CalendarRule.ROLL && !rolled(p.get()).isAfter(atOrBefore)) {
                return Optional.of(rolled(p.get()));
            }
            // the occurrences of this closed stretch are skipped, or roll past the bound: look before it
            Optional<Instant> bound = beforeStretch(p.get());
            if (bound.isEmpty()) {
                return Optional.empty();
            }
            p = cronPrevious(bound.get());
            if (rule == CalendarRule.ROLL) {
                return p.map(this::rolled);
            }
        }
        return Optional.empty();
    }

    private Optional<Instant> cronPrevious(Instant atOrBefore) {
        LocalDateTime local = LocalDateTime.ofInstant(atOrBefore, zone).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        for (int i = 0; i < MAX_STEPS; i++) {
            Optional<ZonedDateTime> p = times.lastExecution(local.atZone(ZoneOffset.UTC));
            if (p.isEmpty()) {
                return Optional.empty();
            }
            local = p.get().toLocalDateTime().truncatedTo(ChronoUnit.SECONDS);
            Instant at = instantOf(local);
            // a gap's local time maps forward, possibly past the bound
            if (!at.isAfter(atOrBefore)) {
                return Optional.of(at);
            }
        }
        return Optional.empty();
    }

    private Instant instantOf(LocalDateTime local) {
        // ofLocal: a gap shifts later by its length, an overlap takes the earlier offset
        return ZonedDateTime.ofLocal(local, zone, null).toInstant();
    }
}
