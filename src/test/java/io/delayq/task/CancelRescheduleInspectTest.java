package io.delayq.task;

import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/** cancel.lua, reschedule.lua and inspect.lua in every state a task can be in. */
class CancelRescheduleInspectTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Instant T1 = Instant.parse("2100-01-01T00:00:00Z");

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    private ClaimedTask inFlight(String id) {
        q.client().enqueue(TaskSpec.of(id).payload("p"));
        return q.claim(0, 1, Duration.ofMinutes(1)).tasks().get(0);
    }

    @Test
    void cancelRemovesAScheduledTaskAndItsRecord() {
        q.client().enqueue(TaskSpec.of("a").at(T1).payload("p").priority(Priority.HIGH));
        assertThat(q.client().cancel("a")).isEqualTo(CancelResult.CANCELLED);
        assertThat(q.allKeys()).containsExactlyInAnyOrder("dq:{orders}:meta", q.keys(0).marker());
        assertThat(q.client().cancel("a")).isEqualTo(CancelResult.UNKNOWN);
        assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void cancelOfAnInFlightTaskIsRefusedAndReported() {
        ClaimedTask running = inFlight("a");
        assertThat(q.client().cancel("a")).isEqualTo(CancelResult.IN_FLIGHT);
        assertThat(sync(q.client().async().cancel("a"))).isEqualTo(CancelResult.IN_FLIGHT);
        // untouched: still in flight under the same lease, record and attempt count kept, ack still works
        assertThat(q.leaseExpiryOf("a")).isEqualTo(running.token());
        assertThat(TaskRecord.decode(q.client().inspect("a").rawRecord()).payload()).isEqualTo("p");
        assertThat(q.client().inspect("a").attempts()).isEqualTo(1);
        assertThat(q.ack(running)).containsExactly(true);
        assertThat(q.client().cancel("a")).isEqualTo(CancelResult.UNKNOWN);
    }

    @Test
    void cancelOfADeadTaskRemovesIt() {
        q.kill(inFlight("a"), "boom", DeadLetterPolicy.DEFAULT);
        assertThat(q.client().cancel("a")).isEqualTo(CancelResult.CANCELLED);
        assertThat(q.zrange(q.keys(0).dead())).isEmpty();
        assertThat(q.recordHashes()).isEmpty();
        assertThat(get(q.redis().hlen(q.keys(0).errors()))).isZero();
        assertThat(get(q.redis().hlen(q.keys(0).attempts()))).isZero();
    }

    @Test
    void rescheduleMovesAScheduledTaskWithinItsPriorityLevel() {
        q.client().enqueue(TaskSpec.of("a").at(T1).payload("p").priority(Priority.HIGHEST));
        Instant later = T1.plusSeconds(60);
        assertThat(q.client().reschedule("a", later)).isEqualTo(new RescheduleResult(RescheduleResult.Status.RESCHEDULED, later.toEpochMilli()));
        assertThat(q.waiting()).containsExactly(java.util.Map.entry("a", later.toEpochMilli()));
        TaskInfo info = q.client().inspect("a");
        assertThat(info.priority()).as("within its level").isEqualTo(2);
        assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("p");
        // an earlier time lowers the wake-up marker
        Instant sooner = T1.minusSeconds(60);
        q.client().reschedule("a", sooner);
        assertThat(q.zrange(q.keys(0).marker())).containsExactly(ScoredValue.just(sooner.toEpochMilli(), "next"));
    }

    @Test
    void rescheduleByDelayIsMeasuredOnTheServerClock() {
        q.client().enqueue(TaskSpec.of("a").at(T1));
        long before = q.serverNow();
        RescheduleResult r = q.client().reschedule("a", Duration.ofMinutes(5));
        long after = q.serverNow();
        assertThat(r.status()).isEqualTo(RescheduleResult.Status.RESCHEDULED);
        assertThat(r.dueAt()).isBetween(before + 300_000, after + 300_000);
    }

    @Test
    void rescheduleRefusesInFlightDeadAndUnknownTasks() {
        ClaimedTask running = inFlight("running");
        assertThat(q.client().reschedule("running", T1))
                .isEqualTo(new RescheduleResult(RescheduleResult.Status.IN_FLIGHT, running.token()));
        q.kill(inFlight("gone"), "boom", DeadLetterPolicy.DEFAULT);
        assertThat(q.client().reschedule("gone", T1).status()).isEqualTo(RescheduleResult.Status.DEAD);
        assertThat(q.client().inspect("gone").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.client().reschedule("nobody", T1)).isEqualTo(new RescheduleResult(RescheduleResult.Status.UNKNOWN, -1));
        assertThat(q.allKeys()).doesNotContain(q.keys(0).due(0));
    }

    @Test
    void inspectReportsEveryState() {
        q.client().enqueue(TaskSpec.of("waiting").at(T1).payload("w").priority(Priority.HIGH));
        TaskInfo waiting = q.client().inspect("waiting");
        assertThat(waiting.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(waiting.score()).isEqualTo(T1.toEpochMilli());
        assertThat(waiting.priority()).isEqualTo(1);
        assertThat(waiting.attempts()).isZero();
        assertThat(waiting.lastError()).isNull();
        assertThat(waiting.overdue()).isFalse();
        assertThat(waiting.shard()).isZero();
        assertThat(waiting.serverNow()).isCloseTo(q.serverNow(), org.assertj.core.data.Offset.offset(5_000L));

        // long overdue, but epoch ms: a claim dead-letters a score before 2000-01-01 (seconds, not ms)
        q.client().enqueue(TaskSpec.of("late").at(Instant.parse("2001-01-01T00:00:00Z")));
        ClaimedTask running = q.claim(0, 1, Duration.ofMinutes(1)).tasks().get(0);
        assertThat(running.id()).isEqualTo("late");
        TaskInfo inflight = q.client().inspect("late");
        assertThat(inflight.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(inflight.score()).isEqualTo(running.token());
        assertThat(inflight.attempts()).isEqualTo(1);

        q.retry(running, Duration.ZERO, "first failure", 5);
        TaskInfo retried = q.client().inspect("late");
        assertThat(retried.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(retried.overdue()).isTrue();
        assertThat(retried.lastError()).isEqualTo("first failure");
        assertThat(retried.attempts()).isEqualTo(1);

        q.kill(q.claim(0, 1, Duration.ofMinutes(1)).tasks().get(0), "permanent failure", DeadLetterPolicy.DEFAULT);
        TaskInfo dead = q.client().inspect("late");
        assertThat(dead.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(dead.attempts()).isEqualTo(2);
        assertThat(dead.lastError()).isEqualTo("permanent failure");
        assertThat(dead.score()).isBetween(running.token() - 60_000, q.serverNow());

        TaskInfo unknown = sync(q.client().async().inspect("nobody"));
        assertThat(unknown).extracting(TaskInfo::state, TaskInfo::score, TaskInfo::attempts, TaskInfo::rawRecord)
                .containsExactly(TaskInfo.State.UNKNOWN, -1L, 0, null);
    }
}
