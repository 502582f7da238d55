package io.delayq.bulk;

import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bulk actions walk protocol 2's due sets, where a queue of protocol 3 keeps nothing: they are refused there, naming
 * the protocol, rather than answering that nothing matched; the tasks are left as they were.
 */
class BulkOnProtocol3Test {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "bulk3", 2);

    @Test
    void previewAndStartAreRefusedNamingProtocol3AndNothingChanges() {
        q.client().enqueue(TaskSpec.of("order-1").after(Duration.ofHours(1)));
        BulkActions bulk = new BulkActions(q.protocol().scope(), Duration.ofSeconds(10));

        assertThatThrownBy(() -> bulk.preview(BulkFilter.ALL)).isInstanceOf(BulkRefusedException.class)
                .hasMessageContaining("queue 'bulk3' is on protocol 3, which does not take bulk actions yet");
        assertThatThrownBy(() -> bulk.start(BulkFilter.ALL, BulkAction.cancel(), "t")).isInstanceOf(BulkRefusedException.class);
        assertThat(q.client().stats().scheduled()).isEqualTo(1);
    }
}
