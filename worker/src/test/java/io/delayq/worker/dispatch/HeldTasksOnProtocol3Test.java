package io.delayq.worker.dispatch;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link HeldTasksTest} on a protocol-3 queue: windows due within the claim-ahead window are held beyond the batch. */
class HeldTasksOnProtocol3Test extends HeldTasksTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
