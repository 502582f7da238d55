package io.delayq.task;

import io.delayq.bucket.BucketLayout;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/** Enqueues on a queue recorded as protocol 3 (p3/enqueue.lua, p3/enqueue_policy.lua). */
class EnqueueOnProtocol3Test extends EnqueueTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    private static final Instant T0 = Instant.parse("2099-12-31T00:00:00Z");
    private static final Instant T1 = Instant.parse("2100-01-01T00:00:00Z");
    private static final Instant T2 = Instant.parse("2100-01-02T00:00:00Z");

    /** The marker carries the start of the task's bucket: a minute, for the tasks here (due 10 minutes or more ahead). */
    @Override
    long markerFor(Instant due) {
        return due.toEpochMilli() - due.toEpochMilli() % BucketLayout.COARSE_MS;
    }

    /**
     * Tasks due 10 minutes or more ahead wait in minutes, listed in one index whatever their level: an enqueue marks
     * only a minute earlier than every minute listed, and a task placed in a minute already listed never marks.
     */
    @Override
    @Test
    @DisplayName("on protocol 3 the marker follows the head of the minutes, which every level shares; a task in a listed minute never marks")
    void markerFollowsTheHeadOfTheTaskOwnLevel() {
        q.client().enqueue(TaskSpec.of("normal").at(T1));
        get(q.redis().del(q.keys(0).marker()));            // as a worker's BZPOPMIN leaves it
        // a high-priority task after T1 heads no index: T1's minute heads the minutes of every level
        q.client().enqueue(TaskSpec.of("vip").at(T2).priority(Priority.HIGH));
        assertThat(q.zrange(q.keys(0).marker())).isEmpty();
        // a tie with the head lands in the head's minute, listed already
        q.client().enqueue(TaskSpec.of("a-tie").at(T1));
        assertThat(q.zrange(q.keys(0).marker())).isEmpty();
        q.client().enqueue(TaskSpec.of("vip-sooner").at(T0).priority(Priority.HIGH));
        assertThat(q.zrange(q.keys(0).marker())).containsExactly(ScoredValue.just(T0.toEpochMilli(), "next"));
    }
}
