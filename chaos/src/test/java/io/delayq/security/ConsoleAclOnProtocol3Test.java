package io.delayq.security;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConsoleAclTest} on a protocol-3 queue: every page and action (a bulk job included) without one denied command. */
class ConsoleAclOnProtocol3Test extends ConsoleAclTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** The console's line as docs/security.md prints it. */
    @Override
    String consoleLine(String password) throws Exception {
        return DocumentedAcl.line("delayq-console", password);
    }
}
