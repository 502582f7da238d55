package io.delayq.cli;

import io.delayq.DurationText;
import io.delayq.cli.text.Instants;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The instant forms the CLI accepts and how it prints durations (their parsing is core's DurationTextTest). */
class TextFormatsTest {
    @Test
    void instantsWithZoneOrOffset_andEpochMillisForFiles() {
        assertThat(Instants.parse("at", "2026-12-01T10:00:00Z")).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(Instants.parse("at", "2026-12-01T11:00:00+01:00")).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
        assertThatThrownBy(() -> Instants.parse("at", "2026-12-01T10:00:00")).hasMessageStartingWith("at: ");
        assertThatThrownBy(() -> Instants.parse("at", "1764583200000")).hasMessageStartingWith("at: ");
        assertThat(Instants.parseInstantOrEpochMillis("dueAt", "1764583200000")).isEqualTo(Instant.ofEpochMilli(1764583200000L));
        assertThatThrownBy(() -> Instants.parseInstantOrEpochMillis("dueAt", "")).hasMessageStartingWith("dueAt: is required");
    }

    @Test
    void humanDurationsAndBothTimes() {
        assertThat(DurationText.human(450)).isEqualTo("450ms");
        assertThat(DurationText.human(1_500)).isEqualTo("1.5s");
        assertThat(DurationText.human(185_000)).isEqualTo("3m 05s");
        assertThat(DurationText.human(7_380_000)).isEqualTo("2h 03m");
        assertThat(DurationText.human(Duration.ofHours(98).toMillis())).isEqualTo("4d 02h");
        assertThat(Instants.both(Instant.parse("2026-07-01T10:00:00Z").toEpochMilli(), CliRun.ZONE))
                .isEqualTo("2026-07-01 12:00:00 CEST (2026-07-01T10:00:00Z)");
    }
}
