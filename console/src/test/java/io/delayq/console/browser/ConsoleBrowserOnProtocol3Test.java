package io.delayq.console.browser;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConsoleBrowserTest} in the real browser with every queue of the fixture recorded as protocol 3: each page and
 * action on a protocol-3 queue, its counts checked against the buckets Redis holds.
 */
class ConsoleBrowserOnProtocol3Test extends ConsoleBrowserTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
