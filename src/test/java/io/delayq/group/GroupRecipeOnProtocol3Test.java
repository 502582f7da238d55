package io.delayq.group;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link GroupRecipeTest} on queues recorded as protocol 3: a group's tasks wait in its buckets (p3/include/buckets.lua). */
class GroupRecipeOnProtocol3Test extends GroupRecipeTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
