package io.delayq.claim;

import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.RetryResult;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/** A bare {@code ZADD dq:{q:i}:due <ms> <id>} with no record is a valid task with an empty payload. */
class IdOnlyTaskTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 4);

    /** What a producer with nothing but ZADD does. */
    private int bareZadd(String id, long dueAt) {
        int shard = q.shardOf(id);
        get(q.redis().zadd("dq:{orders:" + shard + "}:due", dueAt, id));
        return shard;
    }

    @Test
    void inspectStatsAndClaimSeeTheTask() {
        long now = q.serverNow();
        int shard = bareZadd("order-8812", now - 1_000);
        bareZadd("order-later", now + 3_600_000);

        TaskInfo info = q.client().inspect("order-8812");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.score()).isEqualTo(now - 1_000);
        assertThat(info.rawRecord()).isNull();
        assertThat(info.priority()).isZero();
        assertThat(q.client().stats().due()).isEqualTo(1);
        assertThat(q.client().stats().scheduled()).isEqualTo(1);

        ClaimBatch b = q.claim(shard, 10, LEASE);
        assertThat(b.tasks()).hasSize(1);
        ClaimedTask t = b.tasks().get(0);
        assertThat(t.id()).isEqualTo("order-8812");
        assertThat(t.dueAt()).isEqualTo(now - 1_000);
        assertThat(t.attempt()).isEqualTo(1);
        assertThat(t.rawRecord()).isNull();
        assertThat(TaskRecord.decode(t.rawRecord())).isEqualTo(TaskRecord.EMPTY);
        assertThat(q.client().inspect("order-8812").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(q.ack(t)).containsExactly(true);
        assertThat(q.recordHashes()).isEmpty();
    }

    @Test
    void retryDeadLetterAndReplayWork() {
        int shard = bareZadd("w-17", q.serverNow());
        ClaimedTask first = q.claim(shard, 10, LEASE).tasks().get(0);
        assertThat(q.retry(first, Duration.ZERO, "try again", 5).status()).isEqualTo(RetryResult.Status.RETRIED);
        ClaimedTask second = q.claim(shard, 10, LEASE).tasks().get(0);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(TaskRecord.decode(second.rawRecord()).payload()).isNull();
        q.kill(second, "gave up", DeadLetterPolicy.DEFAULT);
        assertThat(q.client().deadLetters(shard, 0, 10).entries()).extracting(DeadLetter::id, DeadLetter::attempts, DeadLetter::lastError)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("w-17", 2, "gave up"));
        assertThat(q.client().replayDead(List.of("w-17"))).isEqualTo(1);
        assertThat(q.claim(shard, 10, LEASE).tasks()).extracting(ClaimedTask::id, ClaimedTask::attempt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("w-17", 1));
    }

    @Test
    void enqueueCancelAndRescheduleTreatItAsExisting() {
        Instant t1 = Instant.parse("2100-01-01T00:00:00Z");
        bareZadd("c-9", t1.toEpochMilli());
        assertThat(q.client().enqueue(TaskSpec.of("c-9")).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        assertThat(q.client().enqueue(TaskSpec.of("c-9").at(t1.minusSeconds(1)), DuplicatePolicy.KEEP_EARLIER).status())
                .isEqualTo(EnqueueResult.Status.EARLIER);
        assertThat(q.client().reschedule("c-9", t1).dueAt()).isEqualTo(t1.toEpochMilli());
        assertThat(q.client().cancel("c-9")).isEqualTo(CancelResult.CANCELLED);
        assertThat(q.client().inspect("c-9").state()).isEqualTo(TaskInfo.State.UNKNOWN);

        bareZadd("c-10", t1.toEpochMilli());
        assertThat(q.client().enqueue(TaskSpec.of("c-10").payload("now with data"), DuplicatePolicy.REPLACE).status())
                .isEqualTo(EnqueueResult.Status.REPLACED);
        assertThat(TaskRecord.decode(q.client().inspect("c-10").rawRecord()).payload()).isEqualTo("now with data");
    }
}
