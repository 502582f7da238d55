package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.ConfigHash;
import io.delayq.operator.workers.WorkerLabels;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.CRUDKubernetesBulkDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.KubernetesBulkDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.Matcher;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The Deployments of a DelayQueue as a JOSDK bulk dependent resource: the workers, one per shard range, and the
 * outbox relay's in mode Deployment. It creates the missing ones, updates the changed ones and deletes the ones
 * no longer desired (a range gone with a new shardsPerWorker, the relay's after a switch to mode Workers). One
 * resource for all of them: a second dependent of the same kind would take the other's Deployments for strays.
 * Owner references make Kubernetes delete them with the DelayQueue.
 */
public class WorkerDeploymentsResource extends KubernetesDependentResource<Deployment, DelayQueue>
        implements CRUDKubernetesBulkDependentResource<Deployment, DelayQueue>,
        KubernetesBulkDependentResource<Deployment, DelayQueue>, GarbageCollected<DelayQueue> {

    public WorkerDeploymentsResource() {
        super(Deployment.class);
    }

    @Override
    public Map<ResourceID, Deployment> desiredResources(DelayQueue primary, Context<DelayQueue> context) {
        Map<ResourceID, Deployment> desired = new LinkedHashMap<>();
        DesiredStateHolder.get(context).deployments().values().forEach(d -> desired.put(ResourceID.fromResource(d), d));
        DesiredStateHolder.outboxRelay(context).ifPresent(d -> desired.put(ResourceID.fromResource(d), d));
        return desired;
    }

    /**
     * As desired when the operator's hash of the Deployment and the replica count agree. Comparing
     * hashes rather than fields ignores what the API server fills in (defaults, status), and still
     * notices removals, which the SDK's non-SSA matcher tolerates.
     */
    @Override
    public Matcher.Result<Deployment> match(Deployment actual, Deployment desired, DelayQueue primary, Context<DelayQueue> context) {
        String want = desired.getMetadata().getAnnotations().get(ConfigHash.DEPLOYMENT_ANNOTATION);
        String have = actual.getMetadata().getAnnotations() == null ? null
                : actual.getMetadata().getAnnotations().get(ConfigHash.DEPLOYMENT_ANNOTATION);
        boolean matches = Objects.equals(want, have)
                && Objects.equals(desired.getSpec().getReplicas(), actual.getSpec() == null ? null : actual.getSpec().getReplicas());
        return Matcher.Result.computed(matches, desired);
    }

    @Override
    protected InformerEventSourceConfiguration.Builder<Deployment> informerConfigurationBuilder(EventSourceContext<DelayQueue> context) {
        return super.informerConfigurationBuilder(context).withLabelSelector(WorkerLabels.MANAGED_SELECTOR);
    }
}
