package io.delayq.lease;

import io.delayq.claim.ClaimBatch;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** reclaim.lua: a record's own maxAttempts decides whether an expired lease is dead-lettered or requeued. */
class ReclaimTaskLimitTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration SHORT = Duration.ofMillis(50);
    private static final int WORKER_MAX = 3;

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "payments", 1);

    /** Claims the task, lets its lease expire (on the server clock), reclaims with the worker's limit. */
    private Reclaimed expireOnce() {
        ClaimBatch b = q.claim(0, 10, SHORT);
        assertThat(b.tasks()).hasSize(1);
        long token = b.tasks().get(0).token();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> q.serverNow() > token);
        return q.reclaim(0, WORKER_MAX);
    }

    @Test
    void aTaskAllowedMoreAttemptsThanTheWorkerIsRequeuedPastTheWorkersLimit() {
        q.client().enqueue(TaskSpec.of("capture-1").payload("p").maxAttempts(5));
        for (int attempt = 1; attempt <= 4; attempt++) {
            assertThat(expireOnce()).as("attempt %d", attempt).isEqualTo(new Reclaimed(1, 0));
        }
        assertThat(expireOnce()).isEqualTo(new Reclaimed(0, 1));
        TaskInfo info = q.client().inspect("capture-1");
        assertThat(info.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(info.lastError()).isEqualTo("lease expired on attempt 5 (worker died or stalled)");
    }

    @Test
    void aTaskAllowedFewerAttemptsIsDeadLetteredAtItsOwnLimit() {
        q.client().enqueue(TaskSpec.of("notify-1").payload("p").maxAttempts(1));
        assertThat(expireOnce()).isEqualTo(new Reclaimed(0, 1));
        assertThat(q.client().inspect("notify-1").lastError()).isEqualTo("lease expired on attempt 1 (worker died or stalled)");
    }

    @Test
    void aHandWrittenLimitOutOfRangeOrUnreadableLeavesTheWorkersLimit() {
        String[] records = {"{\"maxAttempts\":0}", "{\"maxAttempts\":\"lots\"}", "{\"maxAttempts\":1, broken"};
        for (int i = 0; i < records.length; i++) {
            String record = records[i];
            String id = "raw-" + i;
            get(q.redis().hset(q.keys(0).record(id), id, record));
            get(q.redis().zadd(q.keys(0).due(0), q.serverNow() - 1000, id));
            for (int attempt = 1; attempt < WORKER_MAX; attempt++) {
                assertThat(expireOnce()).as(record + " attempt %d", attempt).isEqualTo(new Reclaimed(1, 0));
            }
            assertThat(expireOnce()).as(record).isEqualTo(new Reclaimed(0, 1));
        }
    }
}
