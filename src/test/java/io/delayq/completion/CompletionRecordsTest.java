package io.delayq.completion;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.CancelResult;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** Completion records: what ack.lua keeps after an ack while results are kept, how it is bounded, and what reads it. */
class CompletionRecordsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LONG = Duration.ofMinutes(5);
    private static final ResultRetention HOUR = new ResultRetention(Duration.ofHours(1), 1000);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "payouts", 1);

    private List<Boolean> ack(ResultRetention retention, List<ClaimedTask> tasks, List<Finished> finished) {
        return sync(q.protocol().ack(tasks.get(0).shard(), tasks, Set.of(), retention, "worker-a1b2c3", finished));
    }

    private List<Boolean> ackRan(ResultRetention retention, ClaimedTask task, long handlerMillis, String result) {
        return ack(retention, List.of(task), List.of(new Finished(handlerMillis, BoundedResult.of(result))));
    }

    private ClaimedTask enqueueAndClaim(String id) {
        q.client().enqueue(TaskSpec.of(id));
        return q.claimOne(1, LONG);
    }

    private List<String> completionKeys() {
        return q.allKeys().stream().filter(k -> k.endsWith(":done") || k.endsWith(":done:at")).toList();
    }

    @Test
    void anAckedTaskIsReportedAsSucceededWithWhenAfterHowManyAttemptsByWhomAndItsResult() {
        q.client().enqueue(TaskSpec.of("payout-7"));
        ClaimedTask first = q.claimOne(1, LONG);
        q.retry(first, Duration.ZERO, "bank busy", 5);
        ClaimedTask second = q.claimOne(1, LONG);
        assertThat(second.attempt()).isEqualTo(2);
        long before = q.serverNow();
        assertThat(ackRan(HOUR, second, 35, "transfer tr-91 sent ✓")).containsExactly(true);
        long after = q.serverNow();

        TaskInfo info = q.client().inspect("payout-7");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SUCCEEDED);
        assertThat(info.attempts()).isEqualTo(2);
        CompletionRecord c = info.completion();
        assertThat(c.finishedAt().toEpochMilli()).isBetween(before, after).isEqualTo(info.score());
        assertThat(c.attempts()).isEqualTo(2);
        assertThat(c.workerId()).isEqualTo("worker-a1b2c3");
        assertThat(c.handlerTime()).isEqualTo(Duration.ofMillis(35));
        assertThat(c.result()).isEqualTo("transfer tr-91 sent ✓");
        assertThat(c.truncated()).isFalse();
        assertThat(c.summary()).startsWith("succeeded at ").contains("after 2 attempts, by worker worker-a1b2c3 (handler 35 ms)");
        // the task itself is gone as before: record, attempts, last error
        assertThat(q.storedRecord("payout-7")).isNull();
        assertThat(get(q.redis().hget(q.keys(0).attempts(), "payout-7"))).isNull();
        assertThat(get(q.redis().hget(q.keys(0).errors(), "payout-7"))).isNull();
        // both keys expire with the retention
        assertThat(get(q.redis().pttl(q.keys(0).done()))).isBetween(Duration.ofMinutes(59).toMillis(), Duration.ofHours(1).toMillis());
        assertThat(get(q.redis().pttl(q.keys(0).doneAt()))).isBetween(Duration.ofMinutes(59).toMillis(), Duration.ofHours(1).toMillis());
    }

    @Test
    void withRetentionOffAnAckLeavesNoKeyAndTheTaskIsUnknown() {
        ClaimedTask t = enqueueAndClaim("payout-8");
        assertThat(ack(ResultRetention.OFF, List.of(t), List.of(new Finished(5, BoundedResult.of("ok"))))).containsExactly(true);
        assertThat(completionKeys()).isEmpty();
        assertThat(q.client().inspect("payout-8").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(q.client().inspect("payout-8").completion()).isNull();
    }

    @Test
    void aStaleAckAndATaskAckedWithoutRunningKeepNoRecord() {
        q.client().enqueue(TaskSpec.of("run"));
        q.client().enqueue(TaskSpec.of("expired"));
        List<ClaimedTask> tasks = q.claim(0, 2, LONG).tasks();
        ClaimedTask stale = new ClaimedTask(0, "ghost", 0, 1, 12345, null);
        List<ClaimedTask> all = new ArrayList<>(tasks);
        all.add(stale);
        List<Finished> finished = new ArrayList<>();
        for (ClaimedTask t : all) {
            finished.add(t.id().equals("expired") ? Finished.NO_RECORD : new Finished(1, BoundedResult.of("r-" + t.id())));
        }
        assertThat(ack(HOUR, all, finished)).containsExactly(true, true, false);
        assertThat(get(q.redis().hkeys(q.keys(0).done()))).containsExactly("run");
        assertThat(q.client().inspect("expired").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(q.client().inspect("ghost").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void aResultLongerThanTheBoundIsCutOnACharacterBoundaryAndFlaggedWithoutFailingTheAck() {
        String long3000 = "é".repeat(1500) + "tail"; // 3004 bytes of UTF-8
        ClaimedTask t = enqueueAndClaim("report-1");
        assertThat(ackRan(HOUR, t, 9, long3000)).containsExactly(true);
        CompletionRecord c = q.client().inspect("report-1").completion();
        assertThat(c.truncated()).isTrue();
        assertThat(c.result()).isEqualTo("é".repeat(512));
        assertThat(c.result().getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(CompletionRecord.RESULT_MAX_BYTES);

        // a caller that sends more than the bound anyway (another client) is cut by the script, and flagged
        ClaimedTask u = enqueueAndClaim("report-2");
        String raw = "x".repeat(2000);
        assertThat(ack(HOUR, List.of(u), List.of(new Finished(1, new BoundedResult(raw, false))))).containsExactly(true);
        CompletionRecord d = q.client().inspect("report-2").completion();
        assertThat(d.result()).isEqualTo("x".repeat(1024));
        assertThat(d.truncated()).isTrue();
    }

    @Test
    void theRecordsOfAShardAreBoundedByCountTheOldestGoingFirstABoundedStepPerAck() {
        ResultRetention five = new ResultRetention(Duration.ofHours(1), 5);
        for (int i = 0; i < 12; i++) {
            ackRan(five, enqueueAndClaim(String.format("t-%02d", i)), 1, ""); // zero-padded: ties in the ms sort by id
        }
        assertThat(get(q.redis().zrange(q.keys(0).doneAt(), 0, -1))).containsExactly("t-07", "t-08", "t-09", "t-10", "t-11");
        assertThat(get(q.redis().hkeys(q.keys(0).done()))).containsExactlyInAnyOrder("t-07", "t-08", "t-09", "t-10", "t-11");
        assertThat(q.client().inspect("t-11").state()).isEqualTo(TaskInfo.State.SUCCEEDED);
        assertThat(q.client().inspect("t-06").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void aLoweredCountIsReachedOverSeveralAcksEachTrimmingAtMostItsOwnTasksPlusEight() {
        List<ClaimedTask> thirty = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            q.client().enqueue(TaskSpec.of(String.format("b-%02d", i)));
        }
        thirty.addAll(q.claim(0, 30, LONG).tasks());
        ack(HOUR, thirty, Collections.nCopies(30, new Finished(1, BoundedResult.NONE)));
        assertThat(get(q.redis().zcard(q.keys(0).doneAt()))).isEqualTo(30);

        ResultRetention five = new ResultRetention(Duration.ofHours(1), 5);
        List<Long> sizes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ackRan(five, enqueueAndClaim("c-" + i), 1, "");
            sizes.add(get(q.redis().zcard(q.keys(0).doneAt())));
        }
        assertThat(sizes).containsExactly(22L, 14L, 6L, 5L);
        assertThat(get(q.redis().hlen(q.keys(0).done()))).isEqualTo(5);
    }

    @Test
    void recordsOlderThanTheRetentionAreTrimmedByTheNextAckAndTheKeysExpireWhenAcksStop() {
        ClaimedTask old = enqueueAndClaim("old");
        ackRan(new ResultRetention(Duration.ofMinutes(10), 1000), old, 1, "");
        long oldAt = q.client().inspect("old").completion().finishedAt().toEpochMilli();
        Duration keep = Duration.ofSeconds(2);
        // the server's clock, which the script trims by
        Awaitility.await().atMost(TestQueue.WAIT).pollInterval(Duration.ofMillis(50)).until(() -> q.serverNow() > oldAt + keep.toMillis());

        ackRan(new ResultRetention(keep, 1000), enqueueAndClaim("new"), 1, "");
        assertThat(get(q.redis().zrange(q.keys(0).doneAt(), 0, -1))).containsExactly("new");
        assertThat(get(q.redis().hkeys(q.keys(0).done()))).containsExactly("new");
        assertThat(q.client().inspect("old").state()).isEqualTo(TaskInfo.State.UNKNOWN);

        // no ack follows: the keys vanish once the last record is past the retention
        Awaitility.await().atMost(TestQueue.WAIT).pollInterval(Duration.ofMillis(50)).until(() -> completionKeys().isEmpty());
        assertThat(q.client().inspect("new").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void anIdEnqueuedAgainIsItsNewTaskWithTheEarlierRunsRecordBesideItAndCancelLeavesTheRecord() {
        ackRan(HOUR, enqueueAndClaim("invoice-4"), 3, "first run");
        assertThat(q.client().cancel("invoice-4")).as("nothing waits to be cancelled").isEqualTo(CancelResult.UNKNOWN);
        assertThat(q.client().inspect("invoice-4").state()).isEqualTo(TaskInfo.State.SUCCEEDED);

        assertThat(q.client().enqueue(TaskSpec.of("invoice-4").after(Duration.ofMinutes(5))).status()).isEqualTo(EnqueueResult.Status.ADDED);
        TaskInfo again = q.client().inspect("invoice-4");
        assertThat(again.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(again.completion().result()).isEqualTo("first run");

        assertThat(q.client().cancel("invoice-4")).isEqualTo(CancelResult.CANCELLED);
        assertThat(q.client().inspect("invoice-4").state()).isEqualTo(TaskInfo.State.SUCCEEDED);

        // run again and acked: the new run's record replaces the earlier one
        q.client().enqueue(TaskSpec.of("invoice-4"));
        ackRan(HOUR, q.claimOne(1, LONG), 4, "second run");
        assertThat(q.client().inspect("invoice-4").completion().result()).isEqualTo("second run");
        assertThat(get(q.redis().zcard(q.keys(0).doneAt()))).isEqualTo(1);
    }

    @Test
    void theNewestCompletionsOfAQueueAreListedNewestFirst() {
        for (int i = 0; i < 4; i++) {
            ackRan(HOUR, enqueueAndClaim(String.format("n-%02d", i)), i, "result " + i);
        }
        List<RecentCompletions.Entry> recent = sync(new RecentCompletions(q.protocol().scope()).newest(1, 3));
        assertThat(recent).extracting(RecentCompletions.Entry::id).containsExactly("n-03", "n-02", "n-01");
        assertThat(recent.get(0).record().result()).isEqualTo("result 3");
    }
}
