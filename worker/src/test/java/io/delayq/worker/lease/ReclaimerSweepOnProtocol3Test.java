package io.delayq.worker.lease;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ReclaimerSweepTest} on a protocol-3 queue, whose sweep asks for three keys a shard (lease, coarse minutes, legacy mark). */
class ReclaimerSweepOnProtocol3Test extends ReclaimerSweepTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** 600 shards at 85 a call (256 keys, three a shard). */
    @Override
    long idleSweepExists() {
        return 8;
    }
}
