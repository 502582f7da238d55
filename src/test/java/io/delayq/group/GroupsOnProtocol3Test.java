package io.delayq.group;

import io.delayq.bucket.BucketLayout;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.shard.ShardKeys;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link GroupsTest} on queues recorded as protocol 3: a grouped task waits in its group's buckets ({@code #<group>}
 * last in the name), its windows listed in {@code gx:<group>} and {@code gidx}, the group's turn in protocol 2's
 * {@code groups} (p3/include/buckets.lua); a claim shares its batch by include/group_round.lua as protocol 2's does.
 */
class GroupsOnProtocol3Test extends GroupsTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    private static final Duration LEASE = Duration.ofMinutes(5);

    private String prefix() {
        return BucketLayout.prefix("tenants", 0);
    }

    private ClaimBatch claim(int batch) {
        return sync(q.protocol().claim(0, batch, LEASE, RateLimit.NONE));
    }

    /** A claim takes whole windows (up to a batch): the quiet task comes with the last of the burst, not before it. */
    @Override
    @Test
    void withoutGroupsTheSameQuietTaskWaitsBehindTheBurst() {
        List<TaskSpec> burst = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            burst.add(TaskSpec.of(String.format("noisy-%06d", i)).at(Instant.now().minusSeconds(120).plusMillis(i % 1000)).payload("n"));
        }
        q.client().enqueueAll(burst);
        q.client().enqueue(TaskSpec.of("quiet-1").at(Instant.now().minusSeconds(1)).payload("q"));
        int noisy = 0;
        for (int claims = 0; claims < 100; claims++) {
            ClaimBatch b = claim(100);
            if (b.tasks().stream().anyMatch(t -> t.id().equals("quiet-1"))) {
                assertThat(noisy + b.tasks().size() - 1).isEqualTo(2_000);
                return;
            }
            noisy += b.tasks().size();
        }
        throw new AssertionError("quiet-1 was never claimed");
    }

    @Override
    @Test
    void theGroupKeyIsInTheRecordAndEveryIdOperationFindsAGroupedTask() {
        Instant due = Instant.now().plusSeconds(300);
        long start = BucketLayout.windowStart(due.toEpochMilli());
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(due).payload("p").group("acme")).status()).isEqualTo(EnqueueResult.Status.ADDED);
        ShardKeys k = q.keys(0);
        assertThat(TaskRecord.decode(q.storedRecord("t1")).options().group()).isEqualTo("acme");
        assertThat(q.waitingInGroup(0, "acme")).containsOnlyKeys("t1").containsEntry("t1", due.toEpochMilli());
        assertThat(q.waitingGrouped(0)).containsOnlyKeys("t1");
        assertThat(q.waiting(0)).isEmpty();
        assertThat(q.zrange(prefix() + "gx:acme")).singleElement().satisfies(v -> {
            assertThat(v.getValue()).startsWith("w" + Long.toString(start, 36)).contains("#acme:");
            assertThat(v.getScore()).isEqualTo((double) start);
        });
        // the group's turn is its earliest window's start
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isEqualTo((double) start);

        TaskInfo info = q.client().inspect("t1");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.score()).isEqualTo(due.toEpochMilli());
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(due).group("acme")).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        assertThat(q.client().stats().scheduled()).isEqualTo(1);

        // keep-earlier moves it earlier within its group, and the group's turn follows
        Instant sooner = due.minusSeconds(200);
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(sooner).group("acme"), DuplicatePolicy.KEEP_EARLIER).status())
                .isEqualTo(EnqueueResult.Status.EARLIER);
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isEqualTo((double) BucketLayout.windowStart(sooner.toEpochMilli()));
        assertThat(q.zrange(prefix() + "gx:acme")).hasSize(1);
        // reschedule to now: claimed by the next claim
        assertThat(q.client().reschedule("t1", Instant.now().minusSeconds(1)).status()).isEqualTo(RescheduleResult.Status.RESCHEDULED);
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isLessThanOrEqualTo((double) q.serverNow());
        assertThat(q.client().stats().due()).isEqualTo(1);
        // replace into another group: it leaves the first group's buckets and turn
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(due).group("globex"), DuplicatePolicy.REPLACE).status())
                .isEqualTo(EnqueueResult.Status.REPLACED);
        assertThat(q.waitingInGroup(0, "acme")).isEmpty();
        assertThat(q.zrange(prefix() + "gx:acme")).isEmpty();
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isNull();
        assertThat(q.waitingInGroup(0, "globex")).containsOnlyKeys("t1");
        // cancel: gone from every index
        assertThat(q.client().cancel("t1")).isEqualTo(CancelResult.CANCELLED);
        assertThat(q.allKeys()).noneMatch(key -> key.contains("gx:") || key.endsWith(":gidx") || key.endsWith(":groups") || key.contains(":b:"));
        assertThat(q.client().inspect("t1").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Override
    @Test
    void retriesReclaimsAndDeadLettersOfGroupedTasksStayInTheirGroup() {
        ShardKeys k = q.keys(0);
        q.client().enqueue(TaskSpec.of("r1").at(Instant.now().minusSeconds(5)).payload("p").group("acme"));
        q.client().enqueue(TaskSpec.of("r2").at(Instant.now().minusSeconds(5)).payload("p").group("acme"));
        ClaimBatch b = claim(10);
        assertThat(b.tasks()).hasSize(2);
        assertThat(q.allKeys()).doesNotContain(k.groups(), prefix() + "gidx", prefix() + "gx:acme");

        ClaimedTask r1 = b.tasks().stream().filter(t -> t.id().equals("r1")).findFirst().orElseThrow();
        ClaimedTask r2 = b.tasks().stream().filter(t -> t.id().equals("r2")).findFirst().orElseThrow();
        assertThat(q.retry(r1, Duration.ZERO, "boom", 5).status()).isEqualTo(RetryResult.Status.RETRIED);
        assertThat(q.waitingInGroup(0, "acme")).containsOnlyKeys("r1");
        assertThat(q.waiting(0)).isEmpty();
        ClaimBatch again = claim(10);
        assertThat(again.tasks()).extracting(ClaimedTask::id).containsExactly("r1");
        assertThat(again.tasks().get(0).attempt()).isEqualTo(2);

        assertThat(q.kill(again.tasks().get(0), "permanent", DeadLetterPolicy.DEFAULT).status()).isEqualTo(RetryResult.Status.DEAD);
        assertThat(q.client().replayDead(List.of("r1"))).isEqualTo(1);
        assertThat(q.waitingInGroup(0, "acme")).containsOnlyKeys("r1");
        assertThat(claim(10).tasks()).extracting(ClaimedTask::id).containsExactly("r1");

        // expired leases: back into the group, or dead when out of attempts
        q.client().enqueue(TaskSpec.of("r3").at(Instant.now().minusSeconds(5)).group("acme"));
        ClaimBatch shortLease = sync(q.protocol().claim(0, 10, Duration.ofMillis(1), RateLimit.NONE));
        assertThat(shortLease.tasks()).extracting(ClaimedTask::id).containsExactly("r3");
        await(shortLease.tasks().get(0).token());
        Reclaimed reclaimed = sync(q.protocol().reclaim(0, 100, 0, DeadLetterPolicy.DEFAULT));
        assertThat(reclaimed.requeued()).isGreaterThanOrEqualTo(1);
        assertThat(q.waitingInGroup(0, "acme")).containsKey("r3");
        assertThat(q.zrange(prefix() + "gidx")).isNotEmpty();
        ClaimBatch last = sync(q.protocol().claim(0, 10, Duration.ofMillis(1), RateLimit.NONE));
        assertThat(last.tasks()).extracting(ClaimedTask::id).contains("r3");
        await(last.tasks().get(0).token());
        assertThat(sync(q.protocol().reclaim(0, 100, 2, DeadLetterPolicy.DEFAULT)).dead()).isGreaterThanOrEqualTo(1);
        assertThat(q.client().inspect("r3").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.ack(r2)).containsExactly(true);
    }

    private void await(long leaseExpiry) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> q.serverNow() > leaseExpiry);
    }

    /**
     * What a hand-written producer writes into protocol 2's keys of a protocol-3 queue is adopted (p3/include/legacy.lua):
     * a task in a group's set whose record names that group joins the group's buckets, whatever priority its record
     * claims (grouped tasks have priority 0); a bare id or a record naming no group waits ungrouped; a score that is not
     * epoch milliseconds is dead-lettered naming the rule. Nothing is refused at claim time: the reasons protocol 2's
     * claim gives for a record not matching its group's set do not arise.
     */
    @Override
    @Test
    void whatAHandWrittenProducerGetsWrongAboutGroupsIsDeadLetteredWithTheReasonOrStillRuns() {
        ShardKeys k = q.keys(0);
        writeHandWrittenGroupMistakes(k);
        assertThat(q.client().inspect("plainset").state()).isEqualTo(TaskInfo.State.SCHEDULED);
        // the call by id adopted it where it was written: ungrouped
        assertThat(q.waiting(0)).containsKey("plainset");

        ClaimBatch b = claim(10);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactlyInAnyOrder("plainset", "bare", "prio");
        assertThat(b.tasks()).filteredOn(t -> t.id().equals("prio")).singleElement()
                .satisfies(t -> assertThat(t.flight()).contains("#acme:"));
        assertThat(b.tasks()).filteredOn(t -> !t.id().equals("prio")).allSatisfy(t -> assertThat(t.flight()).doesNotContain("#"));
        TaskInfo far = q.client().inspect("far");
        assertThat(far.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(far.lastError()).isEqualTo("due score inf is not epoch milliseconds (after 9999-12-31)");
        assertThat(q.allKeys()).doesNotContain(k.groupedDue(), k.group("acme"));
    }

    /**
     * A group round takes from one index twice (a share, then what is left): the second take may take the rest of a
     * window the first one split. Each take has its own in-flight name, so every task is in flight once and acks.
     */
    @Test
    void aWindowSplitForOneShareAndTakenWholeForTheRestLosesNoTask() {
        Instant due = Instant.ofEpochMilli(BucketLayout.windowStart(Instant.now().minusSeconds(5).toEpochMilli()));
        List<TaskSpec> tasks = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            tasks.add(TaskSpec.of("plain-" + i).at(due.plusMillis(i)));
        }
        tasks.add(TaskSpec.of("g-0").at(due).group("g"));
        tasks.add(TaskSpec.of("g-1").at(due).group("g"));
        q.client().enqueueAll(tasks);

        ClaimBatch b = claim(10);
        assertThat(b.tasks()).extracting(ClaimedTask::id).doesNotHaveDuplicates().hasSize(10);
        assertThat(q.inFlight(0)).hasSize(10);
        assertThat(sync(q.protocol().ack(0, b.tasks()))).hasSize(10).containsOnly(true);
        assertThat(q.allKeys()).noneMatch(key -> key.contains(":f:") || key.contains(":b:"));
    }

    /**
     * During an upgrade in place a worker not switched yet runs protocol 2's claim, which knows only protocol 2's group
     * sets and takes a group's turn away when they are empty: protocol 3's next claim gives the group a turn back.
     */
    @Test
    void aGroupWhoseTurnProtocol2TookAwayIsServedAgain() {
        q.client().enqueue(TaskSpec.of("t1").at(Instant.now().minusSeconds(2)).group("acme"));
        get(q.redis().zrem(q.keys(0).groups(), "acme"));
        assertThat(claim(10).tasks()).extracting(ClaimedTask::id).containsExactly("t1");
    }

    /**
     * A quiet group's task wakes a sleeping worker although another group's older window waits (its turn pushed out
     * by its rate limit): it is weighed against the earliest turn, as protocol 2's enqueue does.
     */
    @Test
    void aQuietGroupsTaskWakesTheWorkerWhileAnotherGroupWaitsForItsTokens() {
        q.client().enqueue(TaskSpec.of("old-1").at(Instant.now().minusSeconds(10)).group("old"));
        get(q.redis().zadd(q.keys(0).groups(), q.serverNow() + 60_000, "old"));
        get(q.redis().del(q.keys(0).marker()));
        Instant due = Instant.now().minusSeconds(2);
        q.client().enqueue(TaskSpec.of("new-1").at(due).group("new"));
        assertThat(q.zrange(q.keys(0).marker())).singleElement()
                .satisfies(m -> assertThat(m.getScore()).isEqualTo((double) BucketLayout.windowStart(due.toEpochMilli())));
    }

    /** A claim that promotes a group's minute itself (the reclaim sweep behind) serves the group in the same call. */
    @Test
    void aClaimThatPromotesAGroupsMinuteServesIt() {
        Instant due = Instant.now().plusSeconds(1200);
        q.client().enqueue(TaskSpec.of("later").at(due).group("acme"));
        assertThat(q.allKeys()).noneMatch(key -> key.endsWith(":groups") || key.endsWith(":gidx"));
        // the claim's clock set past the due time, as a claim twenty minutes later would read it
        assertThat(claimAt(due.toEpochMilli() + 1)).contains("later");
    }

    /**
     * One call that lists a window, flushes its listings (adopting a protocol-2 task), empties the window and places a
     * task in it again leaves it listed (replace of one id twice in a batch, a bare ZADD between).
     */
    @Test
    void aWindowEmptiedAndFilledAgainInOneCallStaysListed() {
        get(q.redis().zadd(q.keys(0).due(0), q.serverNow() + 30_000, "bare"));
        Instant due = Instant.now().plusSeconds(60);
        q.client().enqueueAll(List.of(TaskSpec.of("a").at(due).group("g"), TaskSpec.of("bare").at(due),
                TaskSpec.of("a").at(due).group("g")), DuplicatePolicy.REPLACE);
        assertThat(q.waitingInGroup(0, "g")).containsOnlyKeys("a");
        assertThat(get(q.redis().zscore(q.keys(0).groups(), "g"))).isNotNull();
        assertThat(claimAt(due.toEpochMilli() + 1)).contains("a");
    }

    private String claimAt(long now) {
        return sync(q.protocol().scripts().<List<Object>>run(io.delayq.bucket.BucketScript.CLAIM, List.of(prefix()),
                List.of("10", "60000", String.valueOf(now), "0", "", "0", "0"))).toString();
    }
}
