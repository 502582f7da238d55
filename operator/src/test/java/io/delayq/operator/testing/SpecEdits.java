package io.delayq.operator.testing;

import io.delayq.operator.resource.DelayQueue;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.function.Consumer;

/**
 * A spec change as a person makes it with {@code kubectl edit}: read, change, write. Fabric8's edit sends the
 * resourceVersion it read, so an operator status write in between answers 409; like the person, the edit then reads
 * the resource again and applies the same change to it.
 */
public final class SpecEdits {
    private static final int ATTEMPTS = 10;

    private SpecEdits() {
    }

    public static void edit(KubernetesClient client, String namespace, String name, Consumer<DelayQueue> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                client.resources(DelayQueue.class).inNamespace(namespace).withName(name).edit(dq -> {
                    change.accept(dq);
                    return dq;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
