package io.delayq.security;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ConsoleAclTest} on a protocol-3 queue, the console's user with what docs/security.md says to append for
 * protocol-3 queues: every page and action (a bulk job included) without one denied command.
 */
class ConsoleAclOnProtocol3Test extends ConsoleAclTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    @Override
    String additions() throws Exception {
        return " " + DocumentedAcl.addition("# Protocol 3 queues: append to the console's line");
    }
}
