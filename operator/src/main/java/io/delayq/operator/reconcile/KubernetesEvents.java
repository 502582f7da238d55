package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.status.Notice;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Records core/v1 Events on a DelayQueue, where {@code kubectl describe dq} shows them. A failed
 * Event is logged and dropped: Events are a courtesy, the status carries the same facts.
 */
final class KubernetesEvents {
    static final String COMPONENT = "delayq-operator";
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesEvents.class);

    private KubernetesEvents() {
    }

    static void record(KubernetesClient client, DelayQueue dq, Notice notice, Instant now) {
        String namespace = dq.getMetadata().getNamespace();
        Event event = new EventBuilder()
                .withNewMetadata()
                    // The kubectl convention: involved object's name, a dot, a unique suffix.
                    .withName(dq.getMetadata().getName() + "." + Long.toHexString(now.toEpochMilli())
                            + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000)))
                    .withNamespace(namespace)
                .endMetadata()
                .withNewInvolvedObject()
                    .withApiVersion(dq.getApiVersion()).withKind(dq.getKind())
                    .withName(dq.getMetadata().getName()).withNamespace(namespace)
                    .withUid(dq.getMetadata().getUid()).withResourceVersion(dq.getMetadata().getResourceVersion())
                .endInvolvedObject()
                .withType(notice.type())
                .withReason(notice.reason())
                .withMessage(notice.message())
                .withCount(1)
                .withFirstTimestamp(now.toString())
                .withLastTimestamp(now.toString())
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
        } catch (KubernetesClientException e) {
            LOG.warn("could not record Event {} on DelayQueue {}/{}: {}", notice.reason(), namespace, dq.getMetadata().getName(), e.getMessage());
        }
    }
}
