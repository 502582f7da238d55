package io.delayq.worker.dispatch;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DELAYQ_RATE_LIMIT on a queue recorded as protocol 3: p3/claim.lua keeps protocol 2's token bucket. */
class RateLimitOnProtocol3Test extends RateLimitTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
