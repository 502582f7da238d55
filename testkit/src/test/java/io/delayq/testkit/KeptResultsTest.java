package io.delayq.testkit;

import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;
import io.delayq.task.TaskInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A handler's {@code task.result()} through the kit's worker keeping results: awaitAcked still answers, inspect shows it. */
class KeptResultsTest {
    static final class RefundHandler implements TaskHandler {
        @Override
        public void handle(Task task) {
            task.result().set("refund for " + task.payload() + " issued");
        }
    }

    @RegisterExtension
    static DelayqTestKit<RefundHandler> delayq = DelayqTestKit.forHandler(RefundHandler::new)
            .queue("refunds").timeout(Duration.ofSeconds(15)).setting("DELAYQ_RESULTS_KEEP", "1h");

    @Test
    void anAckedTasksResultIsKeptForInspect() {
        delayq.enqueue("refund-1", "order 8812");

        assertThat(delayq.awaitAcked("refund-1").attempts()).isEqualTo(1);

        TaskInfo info = delayq.client().inspect("refund-1");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SUCCEEDED);
        assertThat(info.completion().result()).isEqualTo("refund for order 8812 issued");
        assertThat(info.completion().attempts()).isEqualTo(1);
    }
}
