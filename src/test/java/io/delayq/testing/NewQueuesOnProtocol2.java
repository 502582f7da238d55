package io.delayq.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every queue a test class creates is recorded as protocol 2 (docs/protocol.md), not the default 3: for a test of
 * protocol 2's keys and scripts, which a queue created before protocol 3 became the default still runs. Cleared after
 * the class. A subclass registering {@link NewQueuesOnProtocol3} runs the same tests on protocol 3 (its callback runs
 * after this one). {@code @RegisterExtension static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();}
 */
public final class NewQueuesOnProtocol2 implements BeforeAllCallback, AfterAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        System.setProperty(NewQueuesOnProtocol3.PROPERTY, "2");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty(NewQueuesOnProtocol3.PROPERTY);
    }
}
