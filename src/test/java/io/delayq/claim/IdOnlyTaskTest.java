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
import io.delayq.testing.NewQueuesOnProtocol2;
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
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

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

    /**
     * enqueue.lua writes a new id's record first (HSETNX) and learns only from ZADD NX that a bare ZADD's task
     * holds the id: it takes the record back, so the task stays as the producer stored it, record-less.
     */
    @Test
    void enqueueOfABareTasksIdLeavesItRecordLessInEveryPathAndMode() {
        Instant t1 = Instant.parse("2100-01-01T00:00:00Z");
        bareZadd("b-0", t1.toEpochMilli());
        bareZadd("b-1", t1.toEpochMilli());
        bareZadd("b-2", t1.toEpochMilli());
        assertThat(q.client().enqueue(TaskSpec.of("b-0").at(t1.minusSeconds(1)).payload("x")))
                .isEqualTo(new EnqueueResult("b-0", EnqueueResult.Status.DUPLICATE, t1.toEpochMilli()));
        // another priority level: the new set is not where the bare task is, DUE[1] is asked
        assertThat(q.client().enqueue(TaskSpec.of("b-1").payload("x").priority(io.delayq.task.Priority.HIGHEST)))
                .isEqualTo(new EnqueueResult("b-1", EnqueueResult.Status.DUPLICATE, t1.toEpochMilli()));
        assertThat(q.client().enqueue(TaskSpec.of("b-2").at(t1.plusSeconds(1)).payload("x"), DuplicatePolicy.KEEP_EARLIER))
                .isEqualTo(new EnqueueResult("b-2", EnqueueResult.Status.KEPT, t1.toEpochMilli()));
        // in a batch (the head-reading path) too, beside a new id
        assertThat(q.client().enqueueAll(List.of(TaskSpec.of("b-0").payload("y"), TaskSpec.of("fresh").at(t1).payload("z"),
                TaskSpec.of("b-1").payload("y").priority(io.delayq.task.Priority.HIGH))))
                .extracting(EnqueueResult::status)
                .containsExactly(EnqueueResult.Status.DUPLICATE, EnqueueResult.Status.ADDED, EnqueueResult.Status.DUPLICATE);
        for (String id : List.of("b-0", "b-1", "b-2")) {
            TaskInfo info = q.client().inspect(id);
            assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(info.score()).isEqualTo(t1.toEpochMilli());
            assertThat(info.rawRecord()).as(id).isNull();
            assertThat(info.priority()).isZero();
        }
        assertThat(TaskRecord.decode(q.client().inspect("fresh").rawRecord()).payload()).isEqualTo("z");
        assertThat(q.client().stats().scheduled()).isEqualTo(4);
    }
}
