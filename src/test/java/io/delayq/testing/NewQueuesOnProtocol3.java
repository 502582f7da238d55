package io.delayq.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every queue a test class creates is recorded as protocol 3, the default, also where a superclass pinned protocol 2
 * ({@link NewQueuesOnProtocol2}): the switch {@code delayq.protocol}, which clients and in-process workers of this JVM
 * read; cleared after the class. Register it before the queue fixtures:
 * {@code @RegisterExtension static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();}.
 */
public final class NewQueuesOnProtocol3 implements BeforeAllCallback, AfterAllCallback {
    /** The system property {@code QueueProtocol.protocolForNewQueues()} reads before {@code DELAYQ_PROTOCOL}. */
    static final String PROPERTY = "delayq.protocol";

    /**
     * Runs {@code create} with the queues it creates recorded as {@code protocol} (2 or 3), for a test that sets a queue
     * of each side by side.
     */
    public static <T> T creating(int protocol, java.util.function.Supplier<T> create) {
        String before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, String.valueOf(protocol));
        try {
            return create.get();
        } finally {
            if (before == null) {
                System.clearProperty(PROPERTY);
            } else {
                System.setProperty(PROPERTY, before);
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        System.setProperty(PROPERTY, "3");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty(PROPERTY);
    }
}
