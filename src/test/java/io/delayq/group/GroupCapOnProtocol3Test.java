package io.delayq.group;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link GroupCapTest} on queues recorded as protocol 3: a group's tasks wait in its buckets (p3/include/buckets.lua). */
class GroupCapOnProtocol3Test extends GroupCapTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
