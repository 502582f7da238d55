package io.delayq.claim;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConcurrentClaimOnProtocol3Test extends ConcurrentClaimTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
