package io.delayq.schedule;

import io.delayq.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Occurrences computed across real DST changes of real zones, the accepted forms, and bad input. */
class CronTimesTest {

    private static List<Instant> occurrences(String cron, String zone, String fromUtc, int n) {
        CronTimes times = CronTimes.of(cron, zone);
        List<Instant> out = new ArrayList<>();
        Instant t = Instant.parse(fromUtc);
        for (int i = 0; i < n; i++) {
            t = times.next(t).orElseThrow();
            out.add(t);
        }
        return out;
    }

    @Test
    void daily0230InNewYorkFiresOnceOnTheSpringForwardDayAtTheInstantAfterTheGap() {
        // 2026-03-08: clocks jump 02:00 EST → 03:00 EDT; 02:30 does not exist that day
        assertThat(occurrences("30 2 * * *", "America/New_York", "2026-03-06T12:00:00Z", 4)).containsExactly(
                Instant.parse("2026-03-07T07:30:00Z"),  // 02:30 EST
                Instant.parse("2026-03-08T07:30:00Z"),  // 03:30 EDT: 02:30 shifted by the one-hour gap
                Instant.parse("2026-03-09T06:30:00Z"),  // 02:30 EDT
                Instant.parse("2026-03-10T06:30:00Z"));
    }

    @Test
    void daily0130InNewYorkFiresOnceOnTheAutumnOverlapAtTheFirstInstant() {
        // 2026-11-01: clocks go back 02:00 EDT → 01:00 EST; 01:30 happens twice that night
        assertThat(occurrences("30 1 * * *", "America/New_York", "2026-10-31T00:00:00Z", 3)).containsExactly(
                Instant.parse("2026-10-31T05:30:00Z"),  // 01:30 EDT
                Instant.parse("2026-11-01T05:30:00Z"),  // 01:30 EDT, the first pass; not 06:30Z as well
                Instant.parse("2026-11-02T06:30:00Z")); // 01:30 EST
    }

    @Test
    void daily0230InBerlinAcrossBothChangesOf2026() {
        // 2026-03-29 02:00 CET → 03:00 CEST (gap), 2026-10-25 03:00 CEST → 02:00 CET (02:30 twice)
        assertThat(occurrences("30 2 * * *", "Europe/Berlin", "2026-03-27T12:00:00Z", 3)).containsExactly(
                Instant.parse("2026-03-28T01:30:00Z"),
                Instant.parse("2026-03-29T01:30:00Z"),  // 03:30 CEST
                Instant.parse("2026-03-30T00:30:00Z"));
        assertThat(occurrences("30 2 * * *", "Europe/Berlin", "2026-10-23T12:00:00Z", 3)).containsExactly(
                Instant.parse("2026-10-24T00:30:00Z"),
                Instant.parse("2026-10-25T00:30:00Z"),  // 02:30 CEST, the first of the two
                Instant.parse("2026-10-26T01:30:00Z"));
    }

    @Test
    void everyDayOfAYearInNewYorkHasExactlyOneOccurrence() {
        List<Instant> year = occurrences("30 2 * * *", "America/New_York", "2025-12-31T12:00:00Z", 365);
        ZoneId ny = ZoneId.of("America/New_York");
        assertThat(year).extracting(t -> t.atZone(ny).toLocalDate()).doesNotHaveDuplicates()
                .startsWith(LocalDate.of(2026, 1, 1)).endsWith(LocalDate.of(2026, 12, 31));
    }

    @Test
    void hourlyAcrossTheGapMergesTheShiftedOccurrenceWithTheNextOne() {
        assertThat(occurrences("30 * * * *", "America/New_York", "2026-03-08T05:00:00Z", 3)).containsExactly(
                Instant.parse("2026-03-08T05:30:00Z"),  // 00:30 EST
                Instant.parse("2026-03-08T06:30:00Z"),  // 01:30 EST
                Instant.parse("2026-03-08T07:30:00Z")); // 03:30 EDT (02:30 shifted: the same instant, once)
    }

    @Test
    void previousIsTheLatestOccurrenceAtOrBefore() {
        CronTimes times = CronTimes.of("30 2 * * *", "America/New_York");
        assertThat(times.previous(Instant.parse("2026-03-08T07:30:00Z"))).contains(Instant.parse("2026-03-08T07:30:00Z"));
        assertThat(times.previous(Instant.parse("2026-03-08T07:29:59Z"))).contains(Instant.parse("2026-03-07T07:30:00Z"));
        assertThat(times.previous(Instant.parse("2026-03-09T07:00:00Z"))).contains(Instant.parse("2026-03-09T06:30:00Z"));
    }

    @Test
    void occurrencesAreWholeSecondsWhateverTheBound() {
        assertThat(occurrences("* * * * * *", "UTC", "2026-01-01T00:00:00.529Z", 2))
                .containsExactly(Instant.parse("2026-01-01T00:00:01Z"), Instant.parse("2026-01-01T00:00:02Z"));
        assertThat(CronTimes.of("* * * * * *", "UTC").previous(Instant.parse("2026-01-01T00:00:00.529Z")))
                .contains(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void fiveAndSixFieldsAndMacros() {
        assertThat(occurrences("*/15 * * * * *", "UTC", "2026-01-01T00:00:00Z", 2))
                .containsExactly(Instant.parse("2026-01-01T00:00:15Z"), Instant.parse("2026-01-01T00:00:30Z"));
        assertThat(occurrences("@hourly", "UTC", "2026-01-01T00:10:00Z", 1)).containsExactly(Instant.parse("2026-01-01T01:00:00Z"));
        assertThat(occurrences("@daily", "Asia/Shanghai", "2026-01-01T00:00:00Z", 1)).containsExactly(Instant.parse("2026-01-01T16:00:00Z"));
        assertThat(occurrences("5 0 * * 1-5", "Asia/Shanghai", "2026-01-02T00:00:00Z", 1)) // Fri 2 Jan → Mon 5 Jan 00:05 CST
                .containsExactly(Instant.parse("2026-01-04T16:05:00Z"));
        assertThat(occurrences("0 0 12 ? * MON", "UTC", "2026-01-01T00:00:00Z", 1)).containsExactly(Instant.parse("2026-01-05T12:00:00Z"));
    }

    @Test
    void badInputNamesTheFieldAndTheRule() {
        assertThatThrownBy(() -> CronTimes.of("* * *", "UTC")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("cron: must have 5 fields");
        assertThatThrownBy(() -> CronTimes.of("61 * * * *", "UTC")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("cron: \"61 * * * *\" is not a valid expression");
        assertThatThrownBy(() -> CronTimes.of("@sometimes", "UTC")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("cron:");
        assertThatThrownBy(() -> CronTimes.of("0 * * * *", "Mars/Olympus")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("timeZone: must be an IANA time zone");
        assertThatThrownBy(() -> CronSchedule.of("Bad_Name", "0 * * * *")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("name: must be a DNS label");
        assertThatThrownBy(() -> CronSchedule.of("ok", "0 * * * *").window(Instant.parse("2027-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:00Z")))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("end: must be after start");
        assertThatThrownBy(() -> CronSchedule.of("ok", "0 * * * *").misfire(MisfirePolicy.FIRE_ALL_MISSED, 5000))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("misfireLimit: must be between 1 and 1000");
        assertThatThrownBy(() -> MisfirePolicy.fromWire("sometimes")).isInstanceOf(InvalidInputException.class)
                .hasMessage("misfirePolicy: must be one of fireOnceNow, doNothing, fireAllMissed, got sometimes");
    }

    @Test
    void definitionJsonRoundTripsAndIsCanonical() {
        CronSchedule s = CronSchedule.of("close-books", "5 0 * * *").timeZone("Asia/Shanghai").payload("{\"books\":1}").priority(1)
                .window(Instant.parse("2026-01-01T00:00:00Z"), null).misfire(MisfirePolicy.FIRE_ALL_MISSED, 3);
        assertThat(CronSchedule.fromJson(s.toJson())).isEqualTo(s);
        assertThat(CronSchedule.fromJson(s.toJson()).toJson()).isEqualTo(s.toJson());
        assertThat(OccurrenceId.parse(new OccurrenceId("close-books", 3, 1767225900000L).id()))
                .contains(new OccurrenceId("close-books", 3, 1767225900000L));
        assertThat(OccurrenceId.parse("order-8812")).isEmpty();
    }
}
