package io.delayq.worker.dispatch;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link GroupCapWorkerTest} on queues recorded as protocol 3: a group's tasks wait in its buckets (p3/include/buckets.lua). */
class GroupCapWorkerOnProtocol3Test extends GroupCapWorkerTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
