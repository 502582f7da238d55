package io.delayq.security;

import io.delayq.testing.NewQueuesOnProtocol2;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RedisAclTest} on queues of protocol 2, the producer's and the operator's lines without what docs/security.md
 * says to remove where a queue of protocol 2 is in reach: the same jobs with no denied command, the same boundaries.
 */
class RedisAclOnProtocol2Test extends RedisAclTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @Override
    String line(String user, String role, String password) throws Exception {
        return DocumentedAcl.lineForProtocol2(user, role, password);
    }

    @Override
    boolean producerAckDenied() {
        return true;
    }
}
