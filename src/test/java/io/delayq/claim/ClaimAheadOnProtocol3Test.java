package io.delayq.claim;

import io.delayq.bucket.BucketLayout;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claiming ahead on a queue recorded as protocol 3 (p3/claim.lua): the batch from the windows that have begun, then up
 * to the room for held tasks from those starting within the look-ahead, level by level.
 */
class ClaimAheadOnProtocol3Test extends ClaimAheadTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    private static final ClaimAhead TEN_SECONDS = new ClaimAhead(Duration.ofSeconds(10), 100);

    /** A claim names the start of the earliest window (or minute, for a task due 10 minutes or more ahead) still waiting. */
    @Override
    long nextDueAtFor(long dueAt) {
        long span = dueAt - q.serverNow() >= BucketLayout.HORIZON_MS ? BucketLayout.COARSE_MS : BucketLayout.WINDOW_MS;
        return dueAt - dueAt % span;
    }

    /** As on protocol 2, except the last claim: a batch full of due tasks still takes the room ahead (held, no slot). */
    @Override
    @Test
    void theMaximumBoundsTheTasksAheadAndAFullBatchTakesNone() {
        q.client().enqueue(TaskSpec.of("due-0").at(Instant.now().minusSeconds(2)));
        q.client().enqueue(TaskSpec.of("due-1").at(Instant.now().minusSeconds(1)));
        for (int i = 0; i < 5; i++) {
            q.client().enqueue(TaskSpec.of("soon-" + i).at(Instant.now().plusSeconds(2 + i)));
        }
        ClaimBatch capped = claim(10, new ClaimAhead(Duration.ofSeconds(10), 2));
        assertThat(capped.tasks()).extracting(ClaimedTask::id).containsExactly("due-0", "due-1", "soon-0", "soon-1");
        assertThat(capped.nextDueAt()).as("the first task left behind").isEqualTo(nextDueAtFor(q.client().inspect("soon-2").score()));

        q.client().enqueue(TaskSpec.of("due-2").at(Instant.now().minusSeconds(1)));
        assertThat(claim(2, new ClaimAhead(Duration.ofSeconds(10), 2)).tasks()).extracting(ClaimedTask::id)
                .containsExactly("due-2", "soon-2", "soon-3");
        q.client().enqueue(TaskSpec.of("due-3").at(Instant.now().minusSeconds(2)));
        q.client().enqueue(TaskSpec.of("due-4").at(Instant.now().minusSeconds(1)));
        ClaimBatch full = claim(2, TEN_SECONDS);
        assertThat(full.tasks()).extracting(ClaimedTask::id).containsExactly("due-3", "due-4", "soon-4");
        assertThat(full.dueCount()).isEqualTo(2);
    }
}
