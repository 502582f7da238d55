package io.delayq.console.browser;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link BulkPageBrowserTest} in the real browser on a queue recorded as protocol 3. */
class BulkPageBrowserOnProtocol3Test extends BulkPageBrowserTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();
}
