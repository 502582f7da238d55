package io.delayq.console;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConsoleApiTest} with every queue of the fixture recorded as protocol 3: the pages read a protocol-3 queue
 * through the same calls (stats, browse, inspect, reschedule, cancel, dead letters, progress, completions, schedules).
 */
class ConsoleApiOnProtocol3Test extends ConsoleApiTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
