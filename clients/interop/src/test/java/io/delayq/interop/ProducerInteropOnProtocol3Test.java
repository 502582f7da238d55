package io.delayq.interop;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ProducerInteropTest} on queues recorded as protocol 3 (Java creates each queue first): the Python, Node and Go
 * producers speak protocol 3's scripts, and every answer, due time, option and cross-language call is as on protocol 2.
 */
class ProducerInteropOnProtocol3Test extends ProducerInteropTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
