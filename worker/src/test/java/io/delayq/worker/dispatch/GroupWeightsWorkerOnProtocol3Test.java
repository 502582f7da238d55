package io.delayq.worker.dispatch;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link GroupWeightsWorkerTest} on queues recorded as protocol 3: a group's tasks wait in its buckets (p3/include/buckets.lua). */
class GroupWeightsWorkerOnProtocol3Test extends GroupWeightsWorkerTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
