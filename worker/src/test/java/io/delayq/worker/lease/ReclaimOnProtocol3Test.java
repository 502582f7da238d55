package io.delayq.worker.lease;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker's reclaim sweep on a queue recorded as protocol 3: expired leases on shards it does not own go back as the
 * next attempt or to the dead letters, found through the sweep's one {@code EXISTS} per group of shards.
 */
class ReclaimOnProtocol3Test extends ReclaimTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
