package io.delayq.interop;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ProducerReshardInteropTest} on queues recorded as protocol 3: the Python, Node and Go producers follow a grow
 * of a protocol-3 queue (the layout epoch on protocol 3's scripts, the old shard first during the migration, "moving"
 * waited for, earlier counts after it) as they follow one of protocol 2.
 */
class ProducerReshardInteropOnProtocol3Test extends ProducerReshardInteropTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
