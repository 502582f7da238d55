package io.delayq.task;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Debounce on a queue recorded as protocol 3: protocol 2's rules (include/debounce.lua, shared). */
class DebounceOnProtocol3Test extends DebounceTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
