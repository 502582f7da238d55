package io.delayq.group;

import io.delayq.InvalidInputException;
import io.delayq.browse.BrowsePage;
import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowseState;
import io.delayq.browse.BrowsedTask;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RefusedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.shard.ShardKeys;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.Priority;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Groups (protocol.md, "Groups"; include/groups.lua, include/group_claim.lua): a quiet group's task is claimed
 * at once behind another group's burst, the due groups share a claim round robin, the per-group rate limit,
 * and every script that reads or writes due tasks (by id, retry, reclaim, dead letters, stats, browse) knows
 * the group sets.
 */
class GroupsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "tenants", 1);

    private static Instant ago(long seconds) {
        return Instant.now().minusSeconds(seconds);
    }

    private void burst(String group, int n, Instant due) {
        List<TaskSpec> chunk = new ArrayList<>(500);
        for (int i = 0; i < n; i++) {
            TaskSpec t = TaskSpec.of(String.format("noisy-%06d", i)).at(due.plusMillis(i % 1000)).payload("n");
            chunk.add(group == null ? t : t.group(group));
            if (chunk.size() == 500 || i == n - 1) {
                q.client().enqueueAll(chunk);
                chunk.clear();
            }
        }
    }

    private static Map<String, Long> byPrefix(ClaimBatch b) {
        return b.tasks().stream().collect(Collectors.groupingBy(t -> t.id().replaceAll("-.*", ""), Collectors.counting()));
    }

    private ClaimBatch claim(int batch, RateLimit rate) {
        return sync(q.protocol().claim(0, batch, LEASE, rate));
    }

    @Test
    void aQuietGroupsTaskIsClaimedInTheFirstClaimBehindAnotherGroupsBurstOf100000() {
        burst("noisy", 100_000, ago(120));
        // due after every noisy task: in one due set it would wait behind all 100,000
        q.client().enqueue(TaskSpec.of("quiet-1").at(ago(1)).payload("q").group("quiet"));

        ClaimBatch first = claim(100, RateLimit.NONE);
        assertThat(first.tasks()).hasSize(100);
        assertThat(byPrefix(first)).containsEntry("quiet", 1L).containsEntry("noisy", 99L);
        // the noisy group alone now: it gets whole batches, in due-time order
        ClaimBatch second = claim(100, RateLimit.NONE);
        assertThat(byPrefix(second)).containsOnlyKeys("noisy").containsEntry("noisy", 100L);
        assertThat(second.nextDueAt()).isLessThanOrEqualTo(second.serverNow());
        // another quiet task arriving mid-drain is again in the very next claim
        q.client().enqueue(TaskSpec.of("quiet-2").payload("q").group("quiet"));
        assertThat(byPrefix(claim(100, RateLimit.NONE))).containsEntry("quiet", 1L).containsEntry("noisy", 99L);
        assertThat(sync(q.client().async().stats()).due()).isEqualTo(100_000 - 99 - 100 - 99);
    }

    @Test
    void withoutGroupsTheSameQuietTaskWaitsBehindTheBurst() {
        burst(null, 2_000, ago(120));
        q.client().enqueue(TaskSpec.of("quiet-1").at(ago(1)).payload("q"));
        for (int i = 0; i < 20; i++) {
            assertThat(byPrefix(claim(100, RateLimit.NONE))).containsOnlyKeys("noisy");
        }
        assertThat(byPrefix(claim(100, RateLimit.NONE))).containsOnlyKeys("quiet");
    }

    @Test
    void dueGroupsAndUngroupedTasksShareAClaimRoundRobinAndLeftoverRoomGoesToTheFull() {
        for (String g : List.of("a", "b", "c")) {
            for (int i = 0; i < 50; i++) {
                q.client().enqueue(TaskSpec.of(g + "-" + i).at(ago(100 - i)).group(g));
            }
        }
        for (int i = 0; i < 50; i++) {
            q.client().enqueue(TaskSpec.of("plain-" + i).at(ago(200)));
        }
        q.client().enqueue(TaskSpec.of("urgent-1").at(ago(1)).priority(Priority.HIGHEST));
        ClaimBatch b = claim(13, RateLimit.NONE);
        // priority levels first, as before; then the plain due set counts as one more group
        assertThat(b.tasks().get(0).id()).isEqualTo("urgent-1");
        assertThat(byPrefix(b)).containsEntry("urgent", 1L).containsEntry("plain", 3L)
                .containsEntry("a", 3L).containsEntry("b", 3L).containsEntry("c", 3L);
        // each group in due-time order
        assertThat(b.tasks()).filteredOn(t -> t.id().startsWith("a-")).extracting(ClaimedTask::id).containsExactly("a-0", "a-1", "a-2");

        // a group with less than its share leaves the rest to the others
        q.client().enqueue(TaskSpec.of("d-0").at(ago(1)).group("d"));
        Map<String, Long> next = byPrefix(claim(41, RateLimit.NONE));
        assertThat(next.get("d")).isEqualTo(1L);
        assertThat(next.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(41);
        assertThat(next.keySet()).contains("plain", "a", "b", "c");
    }

    @Test
    void moreDueGroupsThanABatchAreServedInTurnsOldestTurnFirst() {
        for (int g = 0; g < 30; g++) {
            for (int i = 0; i < 5; i++) {
                q.client().enqueue(TaskSpec.of("g" + g + "-" + i).at(ago(10)).group("g" + g));
            }
        }
        List<String> served = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            ClaimBatch b = claim(10, RateLimit.NONE);
            assertThat(b.tasks()).hasSize(10);
            b.tasks().forEach(t -> served.add(t.id().replaceAll("-.*", "")));
        }
        // ten different groups per claim, and no group served twice before all 30 had a turn
        assertThat(served).doesNotHaveDuplicates().hasSize(30);
    }

    @Test
    void aGroupTheClaimHadNoRoomForKeepsItsPlaceInLine() {
        for (int g = 0; g < 12; g++) {
            q.client().enqueue(TaskSpec.of("g" + g + "-0").at(ago(10)).group("g" + g));
            q.client().enqueue(TaskSpec.of("g" + g + "-1").at(ago(10)).group("g" + g));
        }
        for (int i = 0; i < 5; i++) {
            q.client().enqueue(TaskSpec.of("plain-" + i).at(ago(20)));
        }
        // room 10: the plain set and the first 10 due groups are looked at, one task each, so the last group looked at is not served
        ClaimBatch b = claim(10, RateLimit.NONE);
        assertThat(byPrefix(b)).containsEntry("plain", 1L).hasSize(10);
        List<ScoredValue<String>> turns = q.zrange(q.keys(0).groups());
        assertThat(turns).hasSize(12);
        long served = turns.stream().filter(t -> t.getScore() >= b.serverNow()).count();
        assertThat(served).isEqualTo(9);
        // the three not served, the one looked at among them, still wait with their head's due time: first in the next claim
        ClaimBatch next = claim(3, RateLimit.NONE);
        Map<String, Long> nextGroups = byPrefix(next);
        nextGroups.remove("plain");
        assertThat(nextGroups.keySet()).doesNotContainAnyElementsOf(byPrefix(b).keySet());
    }

    @Test
    void eachGroupIsHeldToItsRateLimitWhileUngroupedTasksAreNot() {
        for (String g : List.of("a", "b")) {
            for (int i = 0; i < 50; i++) {
                q.client().enqueue(TaskSpec.of(g + "-" + i).at(ago(10)).group(g));
            }
        }
        for (int i = 0; i < 20; i++) {
            q.client().enqueue(TaskSpec.of("plain-" + i).at(ago(10)));
        }
        RateLimit perGroup = RateLimit.NONE.perGroup(10, 5); // one shard: 10 per second per group, burst 5
        ClaimBatch first = claim(100, perGroup);
        assertThat(byPrefix(first)).containsEntry("a", 5L).containsEntry("b", 5L).containsEntry("plain", 20L);
        // the buckets are empty: nothing until a token has refilled, and the answer says when that is
        ClaimBatch empty = claim(100, perGroup);
        assertThat(empty.tasks()).isEmpty();
        assertThat(empty.nextDueAt()).isGreaterThan(empty.serverNow()).isLessThanOrEqualTo(empty.serverNow() + 100);
        assertThat(get(q.redis().zscore(q.keys(0).groups(), "a"))).isGreaterThan((double) first.serverNow());
        // over a longer stretch each group gets no more than burst + rate x elapsed
        List<ClaimedTask> got = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            got.addAll(claim(100, perGroup).tasks());
            return got.stream().filter(t -> t.id().startsWith("a-")).count() >= 5;
        });
        long elapsed = q.serverNow() - first.serverNow();
        long a = got.stream().filter(t -> t.id().startsWith("a-")).count();
        assertThat(a).isLessThanOrEqualTo(1 + elapsed * 10 / 1000);
        assertThat(got).extracting(ClaimedTask::id).doesNotHaveDuplicates();
    }

    @Test
    void theGroupKeyIsInTheRecordAndEveryIdOperationFindsAGroupedTask() {
        Instant due = Instant.now().plusSeconds(3600);
        EnqueueResult added = q.client().enqueue(TaskSpec.of("t1").at(due).payload("p").group("acme"));
        assertThat(added.status()).isEqualTo(EnqueueResult.Status.ADDED);
        ShardKeys k = q.keys(0);
        assertThat(q.storedRecord("t1")).contains("\"group\":\"acme\"");
        assertThat(TaskRecord.decode(q.storedRecord("t1")).options().group()).isEqualTo("acme");
        assertThat(q.zrange(k.group("acme"))).extracting(ScoredValue::getValue).containsExactly("t1");
        assertThat(q.zrange(k.groupedDue())).extracting(ScoredValue::getValue).containsExactly("t1");
        assertThat(q.zrange(k.due(0))).isEmpty();
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isEqualTo((double) due.toEpochMilli());

        TaskInfo info = q.client().inspect("t1");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.score()).isEqualTo(due.toEpochMilli());
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(due).group("acme")).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        assertThat(q.client().stats().scheduled()).isEqualTo(1);
        BrowsePage page = q.client().browse(BrowseQuery.of(BrowseState.SCHEDULED));
        assertThat(page.tasks()).extracting(BrowsedTask::id).containsExactly("t1");

        // keep-earlier moves it earlier within its group, and the group's turn follows
        Instant sooner = due.minusSeconds(600);
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(sooner).group("acme"), DuplicatePolicy.KEEP_EARLIER).status())
                .isEqualTo(EnqueueResult.Status.EARLIER);
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isEqualTo((double) sooner.toEpochMilli());
        // reschedule to now: claimed by the next claim
        assertThat(q.client().reschedule("t1", ago(1)).status()).isEqualTo(RescheduleResult.Status.RESCHEDULED);
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isLessThanOrEqualTo((double) q.serverNow());
        assertThat(q.client().stats().due()).isEqualTo(1);
        // replace into another group: it leaves the first group's sets
        assertThat(q.client().enqueue(TaskSpec.of("t1").at(due).group("globex"), DuplicatePolicy.REPLACE).status())
                .isEqualTo(EnqueueResult.Status.REPLACED);
        assertThat(q.zrange(k.group("acme"))).isEmpty();
        assertThat(get(q.redis().zscore(k.groups(), "acme"))).isNull();
        assertThat(q.zrange(k.group("globex"))).extracting(ScoredValue::getValue).containsExactly("t1");
        // cancel: gone from every set
        assertThat(q.client().cancel("t1")).isEqualTo(CancelResult.CANCELLED);
        assertThat(q.allKeys()).noneMatch(key -> key.contains("group") || key.endsWith("due:g"));
        assertThat(q.client().inspect("t1").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void retriesReclaimsAndDeadLettersOfGroupedTasksStayInTheirGroup() {
        ShardKeys k = q.keys(0);
        q.client().enqueue(TaskSpec.of("r1").at(ago(5)).payload("p").group("acme"));
        q.client().enqueue(TaskSpec.of("r2").at(ago(5)).payload("p").group("acme"));
        ClaimBatch b = claim(10, RateLimit.NONE);
        assertThat(b.tasks()).hasSize(2);
        assertThat(q.allKeys()).doesNotContain(k.groups(), k.groupedDue(), k.group("acme"));

        ClaimedTask r1 = b.tasks().get(0);
        assertThat(q.retry(r1, Duration.ZERO, "boom", 5).status()).isEqualTo(RetryResult.Status.RETRIED);
        assertThat(q.zrange(k.group("acme"))).extracting(ScoredValue::getValue).containsExactly("r1");
        assertThat(q.zrange(k.due(0))).isEmpty();
        ClaimBatch again = claim(10, RateLimit.NONE);
        assertThat(again.tasks()).extracting(ClaimedTask::id).containsExactly("r1");
        assertThat(again.tasks().get(0).attempt()).isEqualTo(2);

        assertThat(q.kill(again.tasks().get(0), "permanent", DeadLetterPolicy.DEFAULT).status()).isEqualTo(RetryResult.Status.DEAD);
        assertThat(q.client().replayDead(List.of("r1"))).isEqualTo(1);
        assertThat(q.zrange(k.group("acme"))).extracting(ScoredValue::getValue).containsExactly("r1");
        assertThat(claim(10, RateLimit.NONE).tasks()).extracting(ClaimedTask::id).containsExactly("r1");

        // expired leases: back into the group, or dead when out of attempts
        ClaimedTask r2 = b.tasks().get(1);
        q.client().enqueue(TaskSpec.of("r3").at(ago(5)).group("acme"));
        ClaimBatch shortLease = sync(q.protocol().claim(0, 10, Duration.ofMillis(1), RateLimit.NONE));
        assertThat(shortLease.tasks()).extracting(ClaimedTask::id).containsExactly("r3");
        await().atMost(Duration.ofSeconds(5)).until(() -> q.serverNow() > shortLease.tasks().get(0).token());
        Reclaimed reclaimed = sync(q.protocol().reclaim(0, 100, 0, DeadLetterPolicy.DEFAULT));
        assertThat(reclaimed.requeued()).isGreaterThanOrEqualTo(1);
        assertThat(q.zrange(k.group("acme"))).extracting(ScoredValue::getValue).contains("r3");
        assertThat(q.zrange(k.groupedDue())).extracting(ScoredValue::getValue).contains("r3");
        ClaimBatch last = sync(q.protocol().claim(0, 10, Duration.ofMillis(1), RateLimit.NONE));
        assertThat(last.tasks()).extracting(ClaimedTask::id).contains("r3");
        await().atMost(Duration.ofSeconds(5)).until(() -> q.serverNow() > last.tasks().get(0).token());
        assertThat(sync(q.protocol().reclaim(0, 100, 2, DeadLetterPolicy.DEFAULT)).dead()).isGreaterThanOrEqualTo(1);
        assertThat(q.client().inspect("r3").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.ack(r2)).containsExactly(true);
    }

    @Test
    void badGroupKeysAreRefusedAtEnqueueNamingTheField() {
        Function<String, String> refusal = g -> {
            try {
                TaskSpec.of("x").group(g);
                return null;
            } catch (InvalidInputException e) {
                return e.getMessage();
            }
        };
        assertThat(refusal.apply("")).startsWith("group: must be 1 to 64 characters");
        assertThat(refusal.apply("a".repeat(65))).startsWith("group: must be at most 64 bytes, got 65");
        assertThat(refusal.apply("tenant 1")).isEqualTo("group: may hold only ASCII letters, digits and - _ . : @ /, got ' ' at offset 6 of \"tenant 1\"");
        assertThat(refusal.apply("tenänt")).contains("U+00E4 at offset 3");
        assertThat(refusal.apply("a{b}")).contains("'{' at offset 1");
        assertThat(refusal.apply("acme-eu.1:x@y/z_")).isNull();
        assertThat(refusal.apply("a".repeat(64))).isNull();
        assertThatThrownBy(() -> TaskSpec.of("x").group("acme").priority(2))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("group: cannot be combined with priority 2");
        assertThatThrownBy(() -> TaskSpec.of("x").priority(1).group("acme"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("group: cannot be combined with priority 1");
        // and nothing was written
        assertThat(q.allKeys()).noneMatch(key -> key.contains("{tenants:0}"));
        // the worker's reader names the field of a hand-written record
        assertThatThrownBy(() -> TaskRecord.decode("{\"payload\":\"p\",\"group\":7}"))
                .hasMessage("task record field 'group' must be a JSON string of 1 to 64 ASCII letters, digits and - _ . : @ /, got a number 7");
        assertThatThrownBy(() -> TaskRecord.decode("{\"group\":\"a b\"}"))
                .hasMessageStartingWith("task record field 'group' may hold only ASCII letters");
        assertThat(TaskRecord.decode("{\"payload\":\"p\"}").options().group()).isNull();
    }

    /**
     * What a hand-written producer gets wrong about groups, in protocol 2's keys: a bare ZADD into a group's set ("bare":
     * no record names the group), a grouped record with a priority ("prio"), a score that never comes due ("far"), and a
     * record naming a group written to the plain due set ("plainset").
     */
    void writeHandWrittenGroupMistakes(ShardKeys k) {
        long now = q.serverNow();
        get(q.redis().zadd(k.group("acme"), now - 1000, "bare"));
        get(q.redis().zadd(k.groupedDue(), now - 1000, "bare"));
        get(q.redis().zadd(k.groups(), now - 1000, "acme"));
        get(q.redis().hset(k.record("prio"), "prio", "{\"payload\":\"p\",\"group\":\"acme\",\"priority\":1}"));
        get(q.redis().zadd(k.group("acme"), now - 900, "prio"));
        get(q.redis().zadd(k.groupedDue(), now - 900, "prio"));
        get(q.redis().hset(k.record("far"), "far", "{\"payload\":\"p\",\"group\":\"acme\"}"));
        get(q.redis().zadd(k.group("acme"), Double.POSITIVE_INFINITY, "far"));
        get(q.redis().zadd(k.groupedDue(), Double.POSITIVE_INFINITY, "far"));
        get(q.redis().hset(k.record("plainset"), "plainset", "{\"payload\":\"p\",\"group\":\"acme\"}"));
        get(q.redis().zadd(k.due(0), now - 800, "plainset"));
    }

    @Test
    void whatAHandWrittenProducerGetsWrongAboutGroupsIsDeadLetteredWithTheReasonOrStillRuns() {
        ShardKeys k = q.keys(0);
        writeHandWrittenGroupMistakes(k);
        assertThat(q.client().inspect("plainset").state()).isEqualTo(TaskInfo.State.SCHEDULED);

        ClaimBatch b = claim(10, RateLimit.NONE);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("plainset");
        Map<String, String> reasons = b.refused().stream().collect(Collectors.toMap(RefusedTask::shownId, RefusedTask::reason, (x, y) -> x,
                HashMap::new));
        assertThat(reasons).containsOnlyKeys("bare", "prio");
        // a score that never comes due is picked up by a claim that finds nothing due (claim.lua), the next one here
        assertThat(b.nextDueAt()).as("the far task's score is no wake-up time").isEqualTo(b.serverNow());
        b = claim(10, RateLimit.NONE);
        assertThat(b.tasks()).isEmpty();
        b.refused().forEach(r -> reasons.put(r.shownId(), r.reason()));
        assertThat(reasons).containsOnlyKeys("bare", "prio", "far");
        assertThat(reasons.get("bare")).isEqualTo("record does not name group acme of the set the task was in (dq:{tenants:0}:group:acme;"
                + " a grouped task's JSON record has \"group\":\"acme\")");
        assertThat(reasons.get("prio")).isEqualTo("record priority 1 does not match the set the task was in (dq:{tenants:0}:group:acme,"
                + " group acme: grouped tasks have priority 0)");
        assertThat(reasons.get("far")).isEqualTo("due score inf is not epoch milliseconds (after 9999-12-31)");
        assertThat(get(q.redis().zcard(k.dead()))).isEqualTo(3);
        assertThat(q.allKeys()).doesNotContain(k.groups(), k.groupedDue(), k.group("acme"));
        assertThat(b.nextDueAt()).isEqualTo(-1);
    }
}
