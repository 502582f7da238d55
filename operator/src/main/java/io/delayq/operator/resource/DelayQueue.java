package io.delayq.operator.resource;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A delay queue in Redis and the fleet of workers that fires its tasks. The CRD in {@code crds/}
 * is generated from this class at build time; its validation rules live here as annotations.
 */
@Group(DelayQueue.GROUP)
@Version(DelayQueue.VERSION)
@Kind("DelayQueue")
@Plural("delayqueues")
@Singular("delayqueue")
@ShortNames("dq")
@AdditionalPrinterColumn(name = "Ready", type = AdditionalPrinterColumn.Type.STRING,
        jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(name = "Phase", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.phase",
        getDescription = "Resharding while the queue grows to spec.shards; else Ready, Progressing, Degraded or Suspended")
@AdditionalPrinterColumn(name = "Shards", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".spec.shards")
@AdditionalPrinterColumn(name = "Workers", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.workers",
        getDescription = "Ready worker pods / desired worker pods")
@AdditionalPrinterColumn(name = "Due", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.backlog.due",
        getDescription = "Tasks due now and not yet claimed")
@AdditionalPrinterColumn(name = "Reshard", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.resharding.progress",
        getDescription = "The running or last shard-count migration: from->to, tasks moved and left")
@AdditionalPrinterColumn(name = "Next-Fire", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.nextScheduleFire",
        getDescription = "The earliest next occurrence of the queue's schedules")
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
// The resource name prefixes worker Deployment, Service and label names (at most 63 characters, and a
// Service name must start with a letter), and is the queue name when spec.queueName is absent.
@ValidationRule(value = "size(self.metadata.name) <= 40 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
        message = "metadata.name must be a lower-case DNS label of at most 40 characters that starts with a letter "
                + "(a-z, 0-9 and '-'): it names the worker Deployments, their Service and labels")
public class DelayQueue extends CustomResource<DelayQueueSpec, DelayQueueStatus> implements Namespaced {
    public static final String GROUP = "delayq.io";
    public static final String VERSION = "v1alpha1";

    public DelayQueue() {
    }

    @Override
    @Required
    public DelayQueueSpec getSpec() {
        return super.getSpec();
    }

    /** The queue name in Redis: spec.queueName, or the resource name. */
    public String queueName() {
        DelayQueueSpec spec = getSpec();
        return spec != null && spec.getQueueName() != null ? spec.getQueueName() : getMetadata().getName();
    }
}
