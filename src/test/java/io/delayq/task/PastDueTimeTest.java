package io.delayq.task;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The words the CLI and the console use for a due time that had already passed on the Redis clock. */
class PastDueTimeTest {
    private static final long NOW = Instant.parse("2026-12-03T10:00:00Z").toEpochMilli();

    @Test
    void aPastTimeIsNamedWithHowFarBackAndThatItFiresAtOnce() {
        long due = Instant.parse("2026-12-03T09:58:30Z").toEpochMilli();
        assertThat(PastDueTime.isPast(due, NOW)).isTrue();
        assertThat(PastDueTime.notice(due, NOW)).isEqualTo("2026-12-03T09:58:30Z is in the past (1m 30s before the Redis time "
                + "2026-12-03T10:00:00Z): the task is due now and fires at once");
    }

    @Test
    void nowAndLaterAreNotPast() {
        assertThat(PastDueTime.isPast(NOW, NOW)).isFalse();
        assertThat(PastDueTime.isPast(NOW + 1, NOW)).isFalse();
    }
}
