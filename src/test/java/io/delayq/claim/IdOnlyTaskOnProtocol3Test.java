package io.delayq.claim;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The seed producers' bare ZADD on a queue recorded as protocol 3: adopted into its bucket (p3/include/legacy.lua). */
class IdOnlyTaskOnProtocol3Test extends IdOnlyTaskTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
