package io.delayq.claim;

import io.delayq.bucket.BucketLayout;
import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claiming ahead on a queue recorded as protocol 3 (p3/claim.lua): the windows starting within the look-ahead are
 * taken as the due ones are, level by level, up to the batch; there is no separate maximum for the tasks ahead.
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

    /** Level 2, then 1, then 0, each from its oldest window: a higher level's tasks ahead come before a lower level's due ones. */
    @Override
    @Test
    @DisplayName("on protocol 3 the tasks ahead come by level with the due ones: a higher level's first")
    void dueTasksComeFirstInPriorityOrderThenTheTasksAheadByLevel() {
        Instant now = Instant.now();
        q.client().enqueue(TaskSpec.of("due-normal").at(now.minusSeconds(30)));
        q.client().enqueue(TaskSpec.of("due-highest").at(now.minusSeconds(10)).priority(Priority.HIGHEST));
        q.client().enqueue(TaskSpec.of("soon-normal").at(now.plusSeconds(2)));
        q.client().enqueue(TaskSpec.of("soon-high").at(now.plusSeconds(4)).priority(Priority.HIGH));

        ClaimBatch b = claim(10, TEN_SECONDS);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("due-highest", "soon-high", "due-normal", "soon-normal");
        assertThat(b.dueCount()).isEqualTo(2);
    }

    @Override
    @Test
    @Disabled("protocol 3's claim has no maximum for the tasks ahead: it takes the windows within the look-ahead up to the batch")
    void theMaximumBoundsTheTasksAheadAndAFullBatchTakesNone() {
    }

    @Override
    @Test
    @Disabled("protocol 3's claim has no maximum for the tasks ahead: it takes the windows within the look-ahead up to the batch")
    void aMaximumOfNoTasksClaimsNothingAhead() {
    }
}
