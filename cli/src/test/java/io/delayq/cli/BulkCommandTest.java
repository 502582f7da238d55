package io.delayq.cli;

import io.delayq.bulk.BulkAction;
import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkFilter;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkRun;
import io.delayq.task.TaskInfo;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class BulkCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders", "USER", "alice"), args);
    }

    private void fill() {
        for (int i = 0; i < 12; i++) {
            queue.schedule("order-" + i, Duration.ofHours(1).plusMinutes(i), "p");
            queue.schedule("refund-" + i, Duration.ofHours(1), "p");
        }
    }

    @Test
    void withoutYesItPreviewsAndChangesNothing() {
        fill();
        CliRun r = delayq("tasks", "bulk", "--prefix", "order-", "--action", "cancel");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("matched:  12 waiting tasks of queue 'orders' (4 shards): waiting tasks, id prefix 'order-'",
                "sample:   the 12 due first", "order-0", "dry run: would cancel (delete with their records) for 12 tasks; nothing changed. Add --yes to do it.");
        assertThat(queue.client().inspect("order-3").state()).isEqualTo(TaskInfo.State.SCHEDULED);
    }

    @Test
    void withYesItActsReportsTheJobAndListsIt() {
        fill();
        CliRun r = delayq("tasks", "bulk", "--prefix", "order-", "--action", "shift", "--shift", "-30m", "--yes", "--batch", "5");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("shift earlier by 30m 00s for the 12 matching tasks", "if this stops, 'delayq tasks resume ", "done: job ",
                ": done, 12/12 done");
        TaskInfo moved = queue.client().inspect("order-0");
        assertThat(moved.score() - moved.serverNow()).isBetween(Duration.ofMinutes(29).toMillis(), Duration.ofMinutes(31).toMillis());
        CliRun jobs = delayq("tasks", "jobs");
        assertThat(jobs.exitCode()).as(jobs.toString()).isZero();
        assertThat(jobs.out()).contains(": done, 12/12 done", "action:  shift earlier by 30m 00s", "by cli:alice");
    }

    @Test
    void deadLetterAndRescheduleTakeTheirArguments() {
        fill();
        CliRun dead = delayq("tasks", "bulk", "--prefix", "refund-", "--action", "dead-letter", "--reason", "merchant closed", "--yes");
        assertThat(dead.exitCode()).as(dead.toString()).isZero();
        assertThat(queue.client().inspect("refund-1").lastError()).isEqualTo("merchant closed");
        CliRun at = delayq("tasks", "bulk", "--prefix", "order-", "--action", "reschedule", "--at", "2030-01-01T00:00:00Z", "--yes");
        assertThat(at.exitCode()).as(at.toString()).isZero();
        assertThat(queue.client().inspect("order-7").score()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void badInputIsOneLineNamingTheFieldAndTheRule() {
        fill();
        CliRun window = delayq("tasks", "bulk", "--from", "2030-01-02T00:00:00Z", "--to", "2030-01-01T00:00:00Z", "--action", "cancel");
        assertThat(window.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(window.oneErrorLine()).as(window.toString()).isTrue();
        assertThat(window.err()).startsWith("delayq tasks bulk: to: the due window [from, to) must end after it starts");

        CliRun action = delayq("tasks", "bulk", "--action", "explode");
        assertThat(action.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(action.err()).startsWith("delayq tasks bulk: action: must be cancel, reschedule, shift, run-now or dead-letter, got 'explode'");

        CliRun noShift = delayq("tasks", "bulk", "--action", "shift");
        assertThat(noShift.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noShift.err()).contains("shift: --action shift needs --shift [+|-]DURATION");

        CliRun overflow = delayq("tasks", "bulk", "--action", "shift", "--shift", "+2925000d", "--yes");
        assertThat(overflow.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(overflow.err()).contains("shift: moves the latest matching task");

        CliRun group = delayq("tasks", "bulk", "--group", "nobody", "--action", "cancel");
        assertThat(group.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(group.err()).contains("group: no task waits in group 'nobody'");

        CliRun nothing = delayq("tasks", "bulk", "--prefix", "nope-", "--action", "cancel", "--yes");
        assertThat(nothing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(nothing.err()).contains("filter: no waiting task in queue 'orders' matches waiting tasks, id prefix 'nope-'; nothing was done");
        assertThat(queue.client().inspect("order-1").state()).isEqualTo(TaskInfo.State.SCHEDULED);
    }

    @Test
    void resumeGoesOnWithAJobThatStoppedMidway() {
        fill();
        BulkActions bulk = new BulkActions(queue.protocol().scope(), QueueFixture.WAIT);
        BulkJob job = bulk.start(BulkFilter.ALL, BulkAction.cancel(), "test");
        AtomicInteger batches = new AtomicInteger();
        BulkJob stopped = bulk.run(job.id(), BulkRun.defaults().batch(2).stopWhen(() -> batches.getAndIncrement() >= 2));
        assertThat(stopped.done()).isEqualTo(4);

        CliRun r = delayq("tasks", "resume", job.id(), "--batch", "3");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("resuming job " + job.id() + ": stopped, 4/24 done", "done: job " + job.id() + ": done, 24/24 done");
        CliRun again = delayq("tasks", "resume", job.id());
        assertThat(again.out()).contains("nothing left to do");
        CliRun unknown = delayq("tasks", "resume", "ffffffffffff");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("job: no bulk job 'ffffffffffff' in queue 'orders'");
    }
}
