package io.delayq.client;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

class ReplicaAckOnProtocol3Test extends ReplicaAckTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
