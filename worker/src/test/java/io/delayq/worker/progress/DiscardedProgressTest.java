package io.delayq.worker.progress;

import io.delayq.handler.Progress;
import io.delayq.handler.Task;
import io.delayq.testing.NewQueuesOnProtocol2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Task built the way it was before progress existed (a handler's own unit test): reports are checked, then forgotten. */
class DiscardedProgressTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private final Task task = new Task("exports", 0, "export-1", 1, 0L, "{}", null, 0);

    @Test
    void theEightArgumentConstructorStillBuildsATaskWhoseProgressIsDiscarded() {
        assertThat(task.progress()).isSameAs(Progress.DISCARDED);
        assertThatCode(() -> task.progress().report(0)).doesNotThrowAnyException();
        assertThatCode(() -> task.progress().report(100, "é".repeat(100))).doesNotThrowAnyException();
        assertThat(new Task("exports", 0, "export-1", 1, 0L, "{}", null, 0, null).progress()).isSameAs(Progress.DISCARDED);
    }

    @Test
    void discardedReportsAreCheckedByTheSameRules() {
        assertThatThrownBy(() -> task.progress().report(Double.POSITIVE_INFINITY, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("progress percent: must be a number from 0 to 100, was Infinity");
        assertThatThrownBy(() -> task.progress().report(1, "é".repeat(101))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("progress note: must be at most 200 bytes of UTF-8, was 202 bytes");
    }
}
