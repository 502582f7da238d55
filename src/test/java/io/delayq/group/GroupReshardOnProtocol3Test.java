package io.delayq.group;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link GroupReshardTest} on queues recorded as protocol 3: a grouped task moves in the batch as "g" and lands in its
 * group's buckets on its new shard (p3/move_out.lua's set "wg", p3/move_in.lua).
 */
class GroupReshardOnProtocol3Test extends GroupReshardTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** Tasks due an hour ahead wait in minutes, which take no turn until they are split into windows. */
    @Override
    Double expectedTurn(long headDue) {
        return null;
    }
}
