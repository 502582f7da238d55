package io.delayq.lease;

import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskProgress;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** progress.lua, and the scripts that end a lease (ack, retry, dead-lettering, reclaim) taking the progress with it. */
class ProgressTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration SHORT = Duration.ofMillis(100);
    private static final Duration LONG = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "exports", 1);

    long report(ClaimedTask task, double percent, String note) {
        return sync(q.protocol().progress(task, percent, note));
    }

    TaskProgress progressOf(String id) {
        return q.client().inspect(id).progress();
    }

    private long progressEntries() {
        return get(q.redis().hlen(q.keys(0).progress()));
    }

    @Test
    void inspectShowsTheLatestReportOfAnInFlightTask() {
        q.client().enqueue(TaskSpec.of("export-7"));
        ClaimedTask task = q.claimOne(1, LONG);
        assertThat(progressOf("export-7")).as("nothing reported yet").isNull();

        long before = q.serverNow();
        assertThat(report(task, 12.5, "1,250 of 10,000 rows")).isEqualTo(1);
        assertThat(report(task, 40, "4,000 of 10,000 rows — ünïcödé ✓")).isEqualTo(1);
        TaskInfo info = q.client().inspect("export-7");
        assertThat(info.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(info.progress().percent()).isEqualTo(40.0);
        assertThat(info.progress().note()).isEqualTo("4,000 of 10,000 rows — ünïcödé ✓");
        assertThat(info.progress().at()).isBetween(before, q.serverNow());
        assertThat(info.progress().summary()).isEqualTo("40 %: 4,000 of 10,000 rows — ünïcödé ✓");
        assertThat(get(q.redis().hget(q.keys(0).progress(), "export-7"))).startsWith(info.progress().at() + "|40|");
    }

    @Test
    void anAckTakesTheProgressOfTheTasksThatReportedAndCostsTheOthersNothing() {
        for (String id : List.of("a", "b", "c")) {
            q.client().enqueue(TaskSpec.of(id));
        }
        List<ClaimedTask> tasks = q.claim(0, 3, LONG).tasks();
        ClaimedTask b = tasks.stream().filter(t -> t.id().equals("b")).findFirst().orElseThrow();
        report(b, 90, "almost");
        assertThat(sync(q.protocol().ack(0, tasks, Set.of("b")))).containsExactly(true, true, true);
        assertThat(progressEntries()).isZero();
        assertThat(q.allKeys()).doesNotContain(q.keys(0).progress());
    }

    @Test
    void aRetryAndADeadLetterTakeTheProgress() {
        q.client().enqueue(TaskSpec.of("retried"));
        ClaimedTask first = q.claimOne(1, LONG);
        report(first, 50, "half");
        assertThat(sync(q.protocol().retry(first, Duration.ZERO, "boom", 5, false, DeadLetterPolicy.DEFAULT, true)).status())
                .isEqualTo(RetryResult.Status.RETRIED);
        assertThat(progressOf("retried")).isNull();
        assertThat(progressEntries()).isZero();

        ClaimedTask second = q.claimOne(1, LONG);
        assertThat(progressOf("retried")).as("the next attempt starts without the last one's progress").isNull();
        report(second, 10, "again");
        assertThat(sync(q.protocol().retry(second, Duration.ZERO, "fatal", 5, true, DeadLetterPolicy.DEFAULT, true)).status())
                .isEqualTo(RetryResult.Status.DEAD);
        assertThat(q.client().inspect("retried").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(progressOf("retried")).isNull();
        assertThat(progressEntries()).isZero();
    }

    @Test
    void anExpiredLeaseTakesTheProgressAndTheStaleWorkerCannotWriteAgain() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask stale = q.claimOne(1, SHORT);
        report(stale, 70, "stale worker");
        q.awaitExpiry(stale.token());
        assertThat(q.reclaim(0, 0)).isEqualTo(new Reclaimed(1, 0));
        assertThat(progressEntries()).isZero();

        ClaimedTask current = q.claimOne(1, LONG);
        assertThat(report(current, 5, "new claim")).isEqualTo(1);
        assertThat(report(stale, 99, "stale worker")).as("refused: the token is not the current claim's").isZero();
        assertThat(progressOf("a").note()).isEqualTo("new claim");
    }

    @Test
    void aWriteWithTheTokenARenewalReplacedIsRefused() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask task = q.claimOne(1, LONG);
        long renewed = sync(q.protocol().extend(0, List.of(task), LONG.plusMinutes(1))).get(0);
        assertThat(report(task, 30, "old token")).isZero();
        assertThat(report(task.withToken(renewed), 30, "new token")).isEqualTo(1);
        assertThat(progressOf("a").note()).isEqualTo("new token");
    }

    @Test
    void nothingIsWrittenForATaskThatIsNotInFlight() {
        q.client().enqueue(TaskSpec.of("waiting").after(Duration.ofHours(1)));
        assertThat(report(new ClaimedTask(0, "waiting", 0, 1, 0, null), 1, "")).isZero();
        assertThat(report(new ClaimedTask(0, "nobody", 0, 1, 0, null), 1, "")).isZero();
        assertThat(progressEntries()).isZero();
        assertThat(progressOf("waiting")).isNull();
    }

    @Test
    void theScriptRefusesAPercentOrNoteOutOfBoundsNamingTheRule() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask task = q.claimOne(1, LONG);
        assertThatThrownBy(() -> report(task, 100.5, "")).hasMessageContaining("progress percent: must be a number from 0 to 100, was 100.5");
        assertThatThrownBy(() -> report(task, -1, "")).hasMessageContaining("progress percent: must be a number from 0 to 100, was -1");
        assertThatThrownBy(() -> report(task, 1, "é".repeat(101)))
                .hasMessageContaining("progress note: must be at most 200 bytes of UTF-8, was 202 bytes");
        assertThat(report(task, 100, "é".repeat(100))).isEqualTo(1);
    }
}
