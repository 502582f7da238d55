package io.delayq.deadletter;

import io.delayq.claim.ClaimedTask;
import io.delayq.lease.RetryResult;
import io.delayq.task.Priority;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** dead_list.lua, dead_replay.lua, dead_purge.lua and the count and age bounds of the dead-letter set. */
class DeadLetterTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    /** Enqueues and kills the tasks one by one, so that they die in this order. */
    private List<Long> killAll(DeadLetterPolicy policy, String... ids) {
        List<Long> diedAt = new ArrayList<>();
        for (String id : ids) {
            q.client().enqueue(TaskSpec.of(id).payload("payload of " + id));
            ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
            RetryResult r = q.kill(t, "error of " + id, policy);
            assertThat(r.status()).isEqualTo(RetryResult.Status.DEAD);
            diedAt.add(r.at());
        }
        return diedAt;
    }

    @Test
    void listPagesOldestFirstWithWhyEachTaskDied() {
        List<Long> diedAt = killAll(DeadLetterPolicy.DEFAULT, "a", "b", "c", "d", "e");
        DeadLetterPage first = q.client().deadLetters(0, 0, 2);
        assertThat(first.total()).isEqualTo(5);
        assertThat(first.shard()).isZero();
        assertThat(first.entries()).containsExactly(
                new DeadLetter(0, "a", diedAt.get(0), 1, "error of a", first.entries().get(0).rawRecord()),
                new DeadLetter(0, "b", diedAt.get(1), 1, "error of b", first.entries().get(1).rawRecord()));
        assertThat(TaskRecord.decode(first.entries().get(0).rawRecord()).payload()).isEqualTo("payload of a");
        assertThat(q.client().deadLetters(0, 2, 2).entries()).extracting(DeadLetter::id).containsExactly("c", "d");
        assertThat(sync(q.client().async().deadLetters(0, 4, 100)).entries()).extracting(DeadLetter::id).containsExactly("e");
        assertThat(q.client().deadLetters(0, 5, 100).entries()).isEmpty();
        assertThat(q.client().deadLetters(0, 5, 100).total()).isEqualTo(5);
    }

    @Test
    void replayGivesDeadTasksAFreshStartDueNow() {
        killAll(DeadLetterPolicy.DEFAULT, "a", "b");
        q.client().enqueue(TaskSpec.of("vip").priority(Priority.HIGHEST));
        q.kill(q.claim(0, 1, LEASE).tasks().get(0), "e", DeadLetterPolicy.DEFAULT);
        q.client().enqueue(TaskSpec.of("alive").at(java.time.Instant.parse("2100-01-01T00:00:00Z")));

        long before = q.serverNow();
        assertThat(q.client().replayDead(List.of("a", "vip", "alive", "nobody"))).isEqualTo(2);
        TaskInfo a = q.client().inspect("a");
        assertThat(a.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(a.score()).isBetween(before, q.serverNow());
        assertThat(a.attempts()).isZero();
        assertThat(a.lastError()).isNull();
        assertThat(q.client().inspect("vip").priority()).as("waits at its level").isEqualTo(2);
        assertThat(q.client().inspect("b").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.client().inspect("alive").state()).isEqualTo(TaskInfo.State.SCHEDULED);

        // the replayed tasks are claimed again as first attempts, higher priority first, with their records
        List<ClaimedTask> again = q.claim(0, 10, LEASE).tasks();
        assertThat(again).extracting(ClaimedTask::id).containsExactly("vip", "a");
        assertThat(again).extracting(ClaimedTask::attempt).containsExactly(1, 1);
        assertThat(again.get(1).rawRecord()).contains("payload of a");
    }

    @Test
    void purgeDeletesDeadTasksForGood() {
        killAll(DeadLetterPolicy.DEFAULT, "a", "b");
        q.client().enqueue(TaskSpec.of("alive"));
        assertThat(q.client().purgeDead(List.of("a", "alive", "nobody"))).isEqualTo(1);
        assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(get(q.redis().hexists(q.keys(0).record("a"), "a"))).isFalse();
        assertThat(get(q.redis().hexists(q.keys(0).attempts(), "a"))).isFalse();
        assertThat(get(q.redis().hexists(q.keys(0).errors(), "a"))).isFalse();
        assertThat(q.client().inspect("alive").state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(sync(q.client().async().purgeDead(List.of("b")))).isEqualTo(1);
        assertThat(q.client().stats().dead()).isZero();
    }

    @Test
    void replayAndPurgeSpanShards() {
        try (TestQueue many = TestQueue.open(redis.url(), "many", 8)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ids.add("task-" + i);
                many.client().enqueue(TaskSpec.of("task-" + i));
            }
            for (int shard = 0; shard < 8; shard++) {
                for (ClaimedTask t : many.claim(shard, 100, LEASE).tasks()) {
                    many.kill(t, "e", DeadLetterPolicy.DEFAULT);
                }
            }
            assertThat(many.client().stats().dead()).isEqualTo(40);
            assertThat(many.client().replayDead(ids.subList(0, 25))).isEqualTo(25);
            assertThat(many.client().purgeDead(ids)).isEqualTo(15);
            assertThat(many.client().stats().dead()).isZero();
            assertThat(many.client().stats().due()).isEqualTo(25);
        }
    }

    @Test
    void countBoundDropsTheOldestWithTheirRecords() {
        DeadLetterPolicy three = new DeadLetterPolicy(3, Duration.ZERO);
        killAll(three, "a", "b", "c", "d", "e");
        DeadLetterPage page = q.client().deadLetters(0, 0, 100);
        assertThat(page.total()).isEqualTo(3);
        assertThat(page.entries()).extracting(DeadLetter::id).containsExactly("c", "d", "e");
        for (String gone : List.of("a", "b")) {
            assertThat(q.client().inspect(gone).state()).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(get(q.redis().hexists(q.keys(0).record(gone), gone))).isFalse();
            assertThat(get(q.redis().hexists(q.keys(0).errors(), gone))).isFalse();
        }
    }

    @Test
    void countBoundAppliesToDeathsByLeaseExpiryToo() {
        killAll(DeadLetterPolicy.DEFAULT, "a", "b");
        q.client().enqueue(TaskSpec.of("crasher"));
        ClaimedTask t = q.claim(0, 1, Duration.ofMillis(50)).tasks().get(0);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> q.serverNow() > t.token());
        assertThat(sync(q.protocol().reclaim(0, 100, 1, new DeadLetterPolicy(2, Duration.ZERO))).dead()).isEqualTo(1);
        assertThat(q.client().deadLetters(0, 0, 10).entries()).extracting(DeadLetter::id).containsExactly("b", "crasher");
    }

    @Test
    void ageBoundDropsTasksDeadForLongerThanMaxAge() {
        Duration maxAge = Duration.ofMillis(300);
        DeadLetterPolicy policy = new DeadLetterPolicy(0, maxAge);
        long diedAt = killAll(policy, "old").get(0);
        // the bound is enforced when the next task dies; wait on the server clock until "old" is over age
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> q.serverNow() >= diedAt + maxAge.toMillis());
        killAll(policy, "young");
        assertThat(q.client().deadLetters(0, 0, 10).entries()).extracting(DeadLetter::id).containsExactly("young");
        assertThat(get(q.redis().hexists(q.keys(0).record("old"), "old"))).isFalse();
    }

    @Test
    void unboundedPolicyKeepsEverything() {
        DeadLetterPolicy unbounded = new DeadLetterPolicy(0, Duration.ZERO);
        killAll(unbounded, "a", "b", "c");
        assertThat(q.client().deadLetters(0, 0, 10).total()).isEqualTo(3);
    }

    @Test
    void policyValidatesItsBounds() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DeadLetterPolicy(-1, Duration.ZERO))
                .hasMessageStartingWith("deadLetterMaxCount: ");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DeadLetterPolicy(1, Duration.ofSeconds(-1)))
                .hasMessageStartingWith("deadLetterMaxAge: ");
    }
}
