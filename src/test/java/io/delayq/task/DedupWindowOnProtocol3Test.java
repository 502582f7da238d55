package io.delayq.task;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dedup windows on a queue recorded as protocol 3: protocol 2's key and rules (include/dedup.lua, shared). */
class DedupWindowOnProtocol3Test extends DedupWindowTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
