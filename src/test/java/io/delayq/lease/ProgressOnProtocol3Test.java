package io.delayq.lease;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress reports on a queue recorded as protocol 3 (p3/progress.lua): the same contract, fenced by the in-flight
 * bucket's name instead of a per-task token.
 */
class ProgressOnProtocol3Test extends ProgressTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** A renewal moves the bucket's lease on and keeps its name, the fence: the holder's reports stay accepted. */
    @Override
    @Test
    @DisplayName("on protocol 3 a renewal keeps the fence (the in-flight name), so the holder's reports stay accepted")
    void aWriteWithTheTokenARenewalReplacedIsRefused() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask task = q.claimOne(1, Duration.ofMinutes(5));
        long renewed = sync(q.protocol().extend(0, List.of(task), Duration.ofMinutes(6))).get(0);
        assertThat(renewed).isGreaterThan(task.token());
        assertThat(report(task, 30, "before the renewal's token")).isEqualTo(1);
        assertThat(report(task.withToken(renewed), 40, "after")).isEqualTo(1);
        assertThat(progressOf("a").note()).isEqualTo("after");
    }
}
