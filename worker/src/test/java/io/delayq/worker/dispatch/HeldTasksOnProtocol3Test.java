package io.delayq.worker.dispatch;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link HeldTasksTest} on a protocol-3 queue. */
class HeldTasksOnProtocol3Test extends HeldTasksTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /**
     * With one or two handler slots, protocol 3's claim at the first task's due time does not take the ten due 2.2 s later
     * ahead: they are claimed at their own due time (never early, so nothing is wrong, but they are not held ahead).
     */
    @Override
    @Test
    @Disabled("protocol 3: a claim for one free slot does not take later windows ahead (docs/protocol3.md, \"Left\")")
    void heldTasksTakeNoHandlerSlotAndAreInFlightWhileTheyWait() {
    }

    /** The same: the ten are not held when the worker stops (they run at their due time, once each). */
    @Override
    @Test
    @Disabled("protocol 3: a claim for one free slot does not take later windows ahead (docs/protocol3.md, \"Left\")")
    void aStoppingWorkerRunsItsHeldTasksAtTheirDueTimeWithNothingLostOrRunTwice() {
    }
}
