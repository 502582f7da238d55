package io.delayq.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * clients/protocol-vectors.json: the business calendars and due times every client library computes the
 * same way (the Python, Node and Go tests check the same cases).
 */
class BusinessTimeVectorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode vectors() throws IOException {
        Path here = Path.of("").toAbsolutePath();
        Path file = here.resolve("../clients/protocol-vectors.json");
        if (!file.toFile().exists()) {
            file = here.resolve("clients/protocol-vectors.json");
        }
        return JSON.readTree(file.toFile());
    }

    private static Map<String, BusinessCalendar> calendars(JsonNode v) {
        Map<String, BusinessCalendar> out = new HashMap<>();
        for (JsonNode c : v.get("calendars")) {
            BusinessCalendar cal = BusinessCalendar.fromJson(c.toString());
            assertThat(cal.toJson()).as("canonical form of %s", cal.name()).isEqualTo(c.toString());
            out.put(cal.name(), cal);
        }
        return out;
    }

    @Test
    void dueTimesAreTheVectors() throws IOException {
        JsonNode v = vectors();
        Map<String, BusinessCalendar> cals = calendars(v);
        assertThat(v.get("businessTime").size()).isGreaterThan(30);
        for (JsonNode c : v.get("businessTime")) {
            BusinessCalendar cal = cals.get(c.get("calendar").asText());
            Instant due = switch (c.get("op").asText()) {
                case "afterBusinessDays" -> BusinessTime.afterBusinessDays(cal, Instant.parse(c.get("from").asText()),
                        c.get("businessDays").asInt(), BusinessTime.time(c.get("time").asText()));
                case "rollForward" -> BusinessTime.rollForward(cal, Instant.parse(c.get("at").asText()));
                default -> throw new AssertionError(c);
            };
            assertThat(due).as(c.get("why").asText()).isEqualTo(Instant.parse(c.get("due").asText()));
        }
    }

    @Test
    void invalidCalendarsAreRefusedByFieldAndRule() throws IOException {
        for (JsonNode c : vectors().get("invalidCalendars")) {
            assertThatThrownBy(() -> BusinessCalendar.fromJson(c.get("calendar").toString()))
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                        assertThat(e.field()).isEqualTo(c.get("field").asText());
                        assertThat(e.getMessage()).isEqualTo(c.get("message").asText());
                    });
        }
    }

    @Test
    void tooManyHolidaysAreRefused() {
        var dates = new java.util.TreeSet<LocalDate>();
        for (int i = 0; i <= BusinessCalendar.MAX_HOLIDAYS; i++) {
            dates.add(LocalDate.of(2000, 1, 1).plusDays(i));
        }
        assertThatThrownBy(() -> BusinessCalendar.weekdays("x", "UTC").holidays(dates))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("holidays"))
                .hasMessage("holidays: must hold at most 1000 dates, got 1001");
    }

    @Test
    void anOffsetIsNoTimeZoneOfACalendar() {
        for (String offset : java.util.List.of("+02:00", "Z", "UTC+01:00")) {
            assertThatThrownBy(() -> BusinessCalendar.weekdays("x", offset))
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.field()).isEqualTo("timeZone"));
        }
    }

    @Test
    void badCountsAndTimesNameTheirField() {
        BusinessCalendar cal = BusinessCalendar.weekdays("x", "UTC");
        assertThatThrownBy(() -> BusinessTime.afterBusinessDays(cal, Instant.EPOCH, -1, BusinessTime.time("10:00")))
                .hasMessage("businessDays: must be 0 to 1000, got -1");
        assertThatThrownBy(() -> BusinessTime.time("25:00")).hasMessage("time: must be a local time HH:MM or HH:MM:SS (24-hour), got \"25:00\"");
        assertThatThrownBy(() -> BusinessTime.time("9:00")).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void aTaskSpecTakesItsDueTimeFromTheCalendar() {
        BusinessCalendar cal = BusinessCalendar.weekdays("de-bank", "Europe/Berlin").holidays(java.util.List.of(LocalDate.parse("2026-12-24")));
        var spec = io.delayq.task.TaskSpec.of("payout-1").afterBusinessDays(cal, Instant.parse("2026-12-23T12:00:00Z"), 1, java.time.LocalTime.of(10, 0));
        assertThat(spec.schedule()).isEqualTo(io.delayq.task.Schedule.at(Instant.parse("2026-12-25T09:00:00Z")));
        var rolled = io.delayq.task.TaskSpec.of("report-1").atNextBusinessMoment(cal, Instant.parse("2026-12-26T08:00:00Z"));
        assertThat(rolled.schedule()).isEqualTo(io.delayq.task.Schedule.at(Instant.parse("2026-12-27T23:00:00Z")));
    }
}
