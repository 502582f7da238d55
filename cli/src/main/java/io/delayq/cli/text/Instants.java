package io.delayq.cli.text;

import io.delayq.InvalidInputException;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Instants on the command line and in files, and the two ways every time is printed: local and UTC. */
public final class Instants {
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z");

    private Instants() {
    }

    /** ISO-8601 with a zone: {@code 2026-12-01T10:00:00Z} or {@code 2026-12-01T11:00:00+01:00}. */
    public static Instant parse(String field, String text) {
        String t = text == null ? "" : text.trim();
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(field, "'" + text + "' is not an ISO-8601 instant with a zone, e.g. 2026-12-01T10:00:00Z "
                    + "or 2026-12-01T11:00:00+01:00");
        }
    }

    /** An ISO-8601 instant, or epoch milliseconds when the text is all digits (the backfill formats). */
    public static Instant parseInstantOrEpochMillis(String field, String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw new InvalidInputException(field, "is required (an ISO-8601 instant like 2026-12-01T10:00:00Z or epoch milliseconds)");
        }
        if (t.chars().allMatch(Character::isDigit)) {
            if (t.length() > 15) {
                throw new InvalidInputException(field, "epoch milliseconds out of range: " + t);
            }
            return Instant.ofEpochMilli(Long.parseLong(t));
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(field, "'" + text + "' is neither an ISO-8601 instant with a zone (2026-12-01T10:00:00Z) "
                    + "nor epoch milliseconds");
        }
    }

    public static String utc(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }

    public static String local(long epochMillis, ZoneId zone) {
        return LOCAL.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
    }

    /** {@code 2026-12-01 11:00:00 CET (2026-12-01T10:00:00Z)} */
    public static String both(long epochMillis, ZoneId zone) {
        return local(epochMillis, zone) + " (" + utc(epochMillis) + ")";
    }

    /** {@code in 5m 02s} or {@code 3m 02s ago}, measured against the server clock. */
    public static String relative(long epochMillis, long serverNow) {
        return io.delayq.DurationText.relative(epochMillis, serverNow);
    }
}
