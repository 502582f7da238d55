package io.delayq;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one duration syntax: the worker's variables, the CLI's options and the operator's spec fields all parse through it. */
class DurationTextTest {
    @Test
    void durationsInShortAndIsoForm() {
        assertThat(DurationText.require("d", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationText.require("d", "30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(DurationText.require("d", "5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(DurationText.require("d", "2h")).isEqualTo(Duration.ofHours(2));
        assertThat(DurationText.require("d", "14d")).isEqualTo(Duration.ofDays(14));
        assertThat(DurationText.require("d", "PT1M30S")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DurationText.require("d", "P2D")).isEqualTo(Duration.ofDays(2));
    }

    @Test
    void invalidDurationsNameTheFieldAndTheForms() {
        for (String bad : new String[]{"", "5", "5 m", "-5m", "1.5h", "PT-5S", "5w", "soon", "P", "PT", "99999999999999999999d"}) {
            assertThatThrownBy(() -> DurationText.require("olderThan", bad)).as(bad)
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith("olderThan: ");
        }
        assertThatThrownBy(() -> DurationText.require("spec.lease", "soon")).hasMessageContaining("'soon'");
    }

    @Test
    void formatWritesTheShortestTextThatReadsBack() {
        assertThat(DurationText.format(Duration.ofDays(14))).isEqualTo("14d");
        assertThat(DurationText.format(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(DurationText.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(DurationText.format(Duration.ofSeconds(45))).isEqualTo("45s");
        assertThat(DurationText.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(DurationText.format(Duration.ZERO)).isEqualTo("0s");
        for (Duration d : new Duration[]{Duration.ofMillis(750), Duration.ofHours(36), Duration.ofDays(3650), Duration.ZERO}) {
            assertThat(DurationText.parse(DurationText.format(d))).isEqualTo(d);
        }
    }

    @Test
    void humanFormRoundsForPeople() {
        assertThat(DurationText.human(450)).isEqualTo("450ms");
        assertThat(DurationText.human(2_500)).isEqualTo("2.5s");
        assertThat(DurationText.human(12_300)).isEqualTo("12s");
        assertThat(DurationText.human(185_000)).isEqualTo("3m 05s");
        assertThat(DurationText.human(7_380_000)).isEqualTo("2h 03m");
        assertThat(DurationText.human(352_800_000)).isEqualTo("4d 02h");
        assertThat(DurationText.relative(1_025_000, 1_000_000)).isEqualTo("in 25s");
        assertThat(DurationText.relative(1_000_000, 1_185_000)).isEqualTo("3m 05s ago");
    }
}
