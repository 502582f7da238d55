package io.delayq.cli;

import io.delayq.task.TaskInfo;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class CancelRescheduleCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    private CliRun delayq(String... args) {
        return CliRun.run(java.util.Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders"), args);
    }

    @Test
    void cancelRemovesAScheduledTask() {
        queue.schedule("order-1", Duration.ofHours(1), "p");

        CliRun r = delayq("cancel", "order-1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("cancelled order-1");
        assertThat(queue.client().inspect("order-1").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void cancelOfAnUnknownIdExitsOneWithOneLine() {
        CliRun r = delayq("cancel", "no-such-order");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err()).contains("id: no task 'no-such-order' in queue 'orders'");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void cancelLeavesATaskInFlightAlone() {
        queue.inFlight(Duration.ofMinutes(1), "running-1");

        CliRun r = delayq("cancel", "running-1");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.err()).contains("is in flight");
        assertThat(queue.client().inspect("running-1").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
    }

    @Test
    void rescheduleMovesTheDueTime() {
        queue.schedule("order-1", Duration.ofHours(1), "p");

        CliRun r = delayq("reschedule", "order-1", "--at", "2027-01-15T08:30:00+01:00");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("rescheduled order-1", "2027-01-15T07:30:00Z", "2027-01-15 08:30:00 CET");
        assertThat(queue.client().inspect("order-1").score()).isEqualTo(Instant.parse("2027-01-15T07:30:00Z").toEpochMilli());
    }

    @Test
    void rescheduleToAPastInstantMakesItDueNowWithANoticeOnStderr() {
        queue.schedule("order-2", Duration.ofHours(1), "p");

        CliRun r = delayq("reschedule", "order-2", "--at", "2020-01-01T00:00:00Z");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("rescheduled order-2", "2020-01-01T00:00:00Z");
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err().strip()).startsWith("delayq reschedule: note: --at 2020-01-01T00:00:00Z is in the past (")
                .endsWith("): the task is due now and fires at once");
        assertThat(queue.client().inspect("order-2").overdue()).isTrue();
    }

    @Test
    void rescheduleOfUnknownDeadOrInvalidInput() {
        CliRun unknown = delayq("reschedule", "ghost", "--delay", "5m");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(unknown.err()).contains("no task 'ghost'");

        queue.dead("HTTP 410", "gone-1");
        CliRun dead = delayq("reschedule", "gone-1", "--delay", "5m");
        assertThat(dead.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(dead.err()).contains("is dead", "delayq dead replay gone-1");

        CliRun bad = delayq("reschedule", "gone-1", "--delay", "-5m");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.oneErrorLine()).isTrue();
        assertThat(bad.err()).contains("--delay", "not a duration");
    }
}
