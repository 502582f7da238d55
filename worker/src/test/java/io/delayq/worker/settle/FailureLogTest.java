package io.delayq.worker.settle;

import io.delayq.claim.ClaimedTask;
import io.delayq.lease.RetryResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failed-attempt lines and their limit, on a clock the test moves: every failure of a quiet worker is printed,
 * a storm prints {@link FailureLog#LINES_PER_WINDOW} per {@link FailureLog#WINDOW} and then one summary line
 * with the count of what it suppressed, also when the storm stopped before the window ended.
 */
class FailureLogTest {
    private static final long DUE_AGAIN = Instant.parse("2026-12-03T10:15:30Z").toEpochMilli();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<String> lines = new ArrayList<>();
    private final FailureLog log = new FailureLog(nanos::get, lines::add);

    private static ClaimedTask task(String id, int attempt) {
        return new ClaimedTask(4, id, 0, attempt, 1, null);
    }

    private void retried(String id) {
        log.failed("orders", task(id, 1), 5, "IllegalStateException: boom", new RetryResult(RetryResult.Status.RETRIED, DUE_AGAIN),
                Duration.ofSeconds(30), null);
    }

    private void dead(String id) {
        log.failed("orders", task(id, 5), 5, "IllegalStateException: boom", new RetryResult(RetryResult.Status.DEAD, DUE_AGAIN),
                Duration.ZERO, null);
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void aRetryNamesTheTaskWhereItFailedTheAttemptTheNextTimeAndTheReason() {
        retried("order-8812");
        assertThat(lines).containsExactly("task \"order-8812\" failed on attempt 1 of 5 (queue orders, shard 4), retry at "
                + "2026-12-03T10:15:30Z (in 30s): IllegalStateException: boom");
    }

    @Test
    void aDeadLetterSaysWhy() {
        dead("order-1");
        log.failed("orders", task("order-2", 1), 0, "PermanentFailure: card declined", new RetryResult(RetryResult.Status.DEAD, DUE_AGAIN),
                Duration.ZERO, "permanent failure");
        assertThat(lines).containsExactly(
                "task \"order-1\" failed on attempt 5 of 5 (queue orders, shard 4), dead-lettered (attempts used up): IllegalStateException: boom",
                "task \"order-2\" failed on attempt 1 (queue orders, shard 4), dead-lettered (permanent failure): PermanentFailure: card declined");
    }

    @Test
    void theReasonIsOneShortLineAndTheIdIsEscaped() {
        log.failed("orders", task("bad\nid", 1), 5, "Boom: first line\n\tat a.b.C(C.java:1)\n" + "x".repeat(500),
                new RetryResult(RetryResult.Status.RETRIED, DUE_AGAIN), Duration.ofMillis(1500), null);
        String line = lines.get(0);
        assertThat(line).startsWith("task \"bad\\x0aid\" failed").contains("(in 1.5s): Boom: first line at a.b.C(C.java:1) xxx")
                .doesNotContain("\n").endsWith("x…");
        assertThat(line.substring(line.indexOf("): Boom") + 3)).hasSize(FailureLog.REASON_MAX + 1);
    }

    @Test
    void aStormPrintsTheLimitThenOneSummaryPerWindow() {
        for (int i = 0; i < FailureLog.LINES_PER_WINDOW + 7; i++) {
            if (i % 3 == 0) {
                dead("t-" + i);
            } else {
                retried("t-" + i);
            }
        }
        assertThat(lines).hasSize(FailureLog.LINES_PER_WINDOW);
        // of the 7 suppressed (i = 20..26), i = 21 and 24 were dead-lettered
        advance(FailureLog.WINDOW.minusMillis(1));
        log.tick();
        assertThat(lines).as("the window is not over yet").hasSize(FailureLog.LINES_PER_WINDOW);

        advance(Duration.ofMillis(1));
        retried("after");
        assertThat(lines.subList(FailureLog.LINES_PER_WINDOW, lines.size())).containsExactly(
                "suppressed 7 similar lines (failed attempts: 5 retried, 2 dead-lettered) in the last 10s; at most 20 such lines are "
                        + "printed per 10s, delayq_tasks_total counts every outcome",
                "task \"after\" failed on attempt 1 of 5 (queue orders, shard 4), retry at 2026-12-03T10:15:30Z (in 30s): "
                        + "IllegalStateException: boom");
    }

    @Test
    void aStormThatStoppedIsSummedUpByTheTickAfterItsWindow() {
        for (int i = 0; i < FailureLog.LINES_PER_WINDOW + 3; i++) {
            retried("t-" + i);
        }
        advance(FailureLog.WINDOW.plusMillis(400));
        log.tick();
        assertThat(lines.get(lines.size() - 1)).startsWith("suppressed 3 similar lines (failed attempts: 3 retried, 0 dead-lettered) "
                + "in the last 10s;");
        log.tick();
        assertThat(lines).as("one summary per window").hasSize(FailureLog.LINES_PER_WINDOW + 1);
    }

    @Test
    void aQuietWorkerPrintsEveryFailure() {
        for (int i = 0; i < 3 * FailureLog.LINES_PER_WINDOW; i++) {
            retried("t-" + i);
            advance(FailureLog.WINDOW.dividedBy(FailureLog.LINES_PER_WINDOW));
            log.tick();
        }
        assertThat(lines).hasSize(3 * FailureLog.LINES_PER_WINDOW).noneMatch(l -> l.startsWith("suppressed"));
    }
}
