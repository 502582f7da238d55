package io.delayq.app.worker;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link GroupCapKillNineProcessTest} on queues recorded as protocol 3: a group's tasks wait in its buckets (p3/include/buckets.lua). */
class GroupCapKillNineOnProtocol3ProcessTest extends GroupCapKillNineProcessTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
