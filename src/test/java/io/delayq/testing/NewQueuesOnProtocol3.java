package io.delayq.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every queue a test class creates is recorded as protocol 3 (the development switch {@code delayq.protocol}, which
 * clients and in-process workers of this JVM read); cleared after the class. Register it before the queue fixtures:
 * {@code @RegisterExtension static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();}.
 */
public final class NewQueuesOnProtocol3 implements BeforeAllCallback, AfterAllCallback {
    /**
     * Runs {@code create} with the queues it creates recorded as {@code protocol} (2 or 3), for a test that sets a queue
     * of each side by side.
     */
    public static <T> T creating(int protocol, java.util.function.Supplier<T> create) {
        if (protocol == 3) {
            System.setProperty("delayq.protocol", "3");
        }
        try {
            return create.get();
        } finally {
            System.clearProperty("delayq.protocol");
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        System.setProperty("delayq.protocol", "3");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty("delayq.protocol");
    }
}
