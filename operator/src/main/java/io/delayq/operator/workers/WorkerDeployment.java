package io.delayq.operator.workers;

import io.delayq.DurationText;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.WorkerSpec;
import io.delayq.operator.sharding.WorkerRange;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;

/**
 * The desired worker Deployment of one shard range: a pure function of the DelayQueue, the range,
 * the replica count and the versions of the Secrets the pods read (by environment or, for the
 * Redis and Kafka TLS files, as mounted files).
 */
public final class WorkerDeployment {
    public static final String CONTAINER = "worker";
    public static final String SHARD_RANGE_ANNOTATION = "delayq.io/shard-range";
    /** Extra time beyond the worker's own shutdown grace for the JVM to exit after draining. */
    static final long EXIT_MARGIN_SECONDS = 10;

    private WorkerDeployment() {
    }

    /**
     * @param secretVersions resourceVersion of each Secret the pods read (by name): part of the
     *                       config hash, so a rotated credential rolls the workers too
     */
    public static Deployment desired(DelayQueue dq, ShardRange range, int replicas,
                                     SortedMap<String, String> secretVersions, String defaultImage) {
        return desired(dq, new WorkerRange(range, dq.getSpec().getShards(), false), replicas, secretVersions, defaultImage);
    }

    /** The Deployment of a range of a given layout (while a queue grows, the old layout's keep its count). */
    public static Deployment desired(DelayQueue dq, WorkerRange worker, int replicas,
                                     SortedMap<String, String> secretVersions, String defaultImage) {
        ShardRange range = worker.range();
        String name = dq.getMetadata().getName();
        String queue = dq.queueName();
        Map<String, String> labels = WorkerLabels.forRange(name, queue, range);

        PodTemplateSpec template = podTemplate(dq, range, worker.shards(), labels, defaultImage);
        String configHash = ConfigHash.of(template, secretVersions);
        template.getMetadata().getAnnotations().put(ConfigHash.POD_TEMPLATE_ANNOTATION, configHash);

        Deployment deployment = new DeploymentBuilder()
                .withNewMetadata()
                    .withName(WorkerNames.deployment(name, range))
                    .withNamespace(dq.getMetadata().getNamespace())
                    .withLabels(labels)
                    .addToAnnotations(SHARD_RANGE_ANNOTATION, range.toString())
                    .withOwnerReferences(ownerReference(dq))
                .endMetadata()
                .withNewSpec()
                    .withReplicas(replicas)
                    .withRevisionHistoryLimit(3)
                    .withNewSelector().withMatchLabels(WorkerLabels.rangeSelector(name, range)).endSelector()
                    // A new pod starts before an old one stops: two workers on a range are safe
                    // (claims are atomic), a range with no worker delays tasks.
                    .withNewStrategy().withType("RollingUpdate")
                        .withNewRollingUpdate().withMaxSurge(new IntOrString(1)).withMaxUnavailable(new IntOrString(0)).endRollingUpdate()
                    .endStrategy()
                    .withTemplate(template)
                .endSpec()
                .build();
        // Hash of everything but the replica count, which autoscaling changes without a rollout.
        Deployment unscaled = new DeploymentBuilder(deployment).editSpec().withReplicas(null).endSpec().build();
        deployment.getMetadata().getAnnotations().put(ConfigHash.DEPLOYMENT_ANNOTATION, ConfigHash.of(unscaled));
        return deployment;
    }

    public static OwnerReference ownerReference(DelayQueue dq) {
        return new OwnerReferenceBuilder()
                .withApiVersion(dq.getApiVersion())
                .withKind(dq.getKind())
                .withName(dq.getMetadata().getName())
                .withUid(dq.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    private static PodTemplateSpec podTemplate(DelayQueue dq, ShardRange range, int shards, Map<String, String> labels, String defaultImage) {
        DelayQueueSpec spec = dq.getSpec();
        WorkerSpec worker = spec.getWorker() == null ? new WorkerSpec() : spec.getWorker();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (worker.getPodAnnotations() != null) {
            annotations.putAll(worker.getPodAnnotations());
        }
        DelayqProcess.addScrapeAnnotations(annotations);

        Duration grace = DurationText.require("spec.shutdownGrace", spec.getShutdownGrace());
        return new PodTemplateSpecBuilder()
                .withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
                .withSpec(DelayqProcess.podSpec(worker, grace.toSeconds() + EXIT_MARGIN_SECONDS, "256Mi")
                        .withContainers(container(dq, range, shards, worker, defaultImage))
                        .addAllToVolumes(RedisTlsCa.of(dq).map(RedisTlsCa::volume).stream().toList())
                        .addAllToVolumes(KafkaTls.volumes(dq))
                        .build())
                .build();
    }

    private static Container container(DelayQueue dq, ShardRange range, int shards, WorkerSpec worker, String defaultImage) {
        return DelayqProcess.container(CONTAINER, worker, defaultImage)
                .withEnv(WorkerEnvironment.of(dq, range, shards))
                .withResources(DelayqProcess.resources(worker.getResources(), "100m", "256Mi", "512Mi"))
                .addAllToVolumeMounts(RedisTlsCa.of(dq).map(ref -> RedisTlsCa.mount()).stream().toList())
                .addAllToVolumeMounts(KafkaTls.mounts(dq))
                .build();
    }
}
