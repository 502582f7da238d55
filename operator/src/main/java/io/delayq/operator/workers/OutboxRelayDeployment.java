package io.delayq.operator.workers;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.OutboxRelaySpec;
import io.delayq.operator.resource.OutboxSpec;
import io.delayq.operator.resource.WorkerSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The desired Deployment of the outbox relay in mode Deployment ({@code spec.outbox.relay.mode}): a pure function of
 * the DelayQueue, the versions of the Secrets the relay reads and the operator's default image. Empty without an
 * outbox or in mode Workers, where the workers run the relay (and this Deployment, if it exists, is removed).
 * The same image as the workers, started as {@code delayq outbox-relay}.
 */
public final class OutboxRelayDeployment {
    public static final String CONTAINER = "outbox-relay";
    public static final String COMMAND = "outbox-relay";
    /** The relay stops after its current round: a batch commits or is left to the next relay within seconds. */
    static final long TERMINATION_GRACE_SECONDS = 30;

    private OutboxRelayDeployment() {
    }

    /**
     * @param secretVersions resourceVersion of the Secrets the operator found, by name; those the relay reads (Redis
     *                       credentials and CA, the database credentials) are part of its config hash, so rotating one
     *                       rolls the relay, and rotating the workers' others does not
     */
    public static Optional<Deployment> desired(DelayQueue dq, SortedMap<String, String> secretVersions, String defaultImage) {
        OutboxSpec outbox = dq.getSpec().getOutbox();
        if (!OutboxRelaySpec.ownDeployment(outbox)) {
            return Optional.empty();
        }
        OutboxRelaySpec relay = outbox.getRelay();
        String name = dq.getMetadata().getName();
        Map<String, String> labels = WorkerLabels.forOutboxRelay(name, dq.queueName());
        PodTemplateSpec template = podTemplate(dq, relay, labels, defaultImage);
        template.getMetadata().getAnnotations().put(ConfigHash.POD_TEMPLATE_ANNOTATION, ConfigHash.of(template, readBy(dq, secretVersions)));
        Deployment deployment = new DeploymentBuilder()
                .withNewMetadata()
                    .withName(WorkerNames.outboxRelay(name))
                    .withNamespace(dq.getMetadata().getNamespace())
                    .withLabels(labels)
                    .withOwnerReferences(WorkerDeployment.ownerReference(dq))
                .endMetadata()
                .withNewSpec()
                    .withReplicas(relay.getReplicas())
                    .withRevisionHistoryLimit(3)
                    .withNewSelector().withMatchLabels(WorkerLabels.outboxRelaySelector(name)).endSelector()
                    // two relays at once are safe (disjoint batches); none leaves committed rows waiting
                    .withNewStrategy().withType("RollingUpdate")
                        .withNewRollingUpdate().withMaxSurge(new IntOrString(1)).withMaxUnavailable(new IntOrString(0)).endRollingUpdate()
                    .endStrategy()
                    .withTemplate(template)
                .endSpec()
                .build();
        deployment.getMetadata().getAnnotations().put(ConfigHash.DEPLOYMENT_ANNOTATION, ConfigHash.of(deployment));
        return Optional.of(deployment);
    }

    /** The versions of the Secrets the relay's pods read. */
    static SortedMap<String, String> readBy(DelayQueue dq, SortedMap<String, String> secretVersions) {
        SortedMap<String, String> read = new TreeMap<>();
        var redis = dq.getSpec().getRedis();
        var outbox = dq.getSpec().getOutbox();
        for (String secret : new String[]{
                redis.getCredentialsSecret() == null ? null : redis.getCredentialsSecret().getName(),
                redis.getTlsCaSecret() == null ? null : redis.getTlsCaSecret().getName(),
                outbox.getCredentialsSecret() == null ? null : outbox.getCredentialsSecret().getName()}) {
            if (secret != null && secretVersions.containsKey(secret)) {
                read.put(secret, secretVersions.get(secret));
            }
        }
        return read;
    }

    private static PodTemplateSpec podTemplate(DelayQueue dq, OutboxRelaySpec relay, Map<String, String> labels, String defaultImage) {
        // where the worker pods run, pull from and as whom: the relay runs the same image
        WorkerSpec worker = dq.getSpec().getWorker() == null ? new WorkerSpec() : dq.getSpec().getWorker();
        Map<String, String> annotations = new LinkedHashMap<>();
        DelayqProcess.addScrapeAnnotations(annotations);
        return new PodTemplateSpecBuilder()
                .withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
                .withSpec(DelayqProcess.podSpec(worker, TERMINATION_GRACE_SECONDS, "64Mi")
                        .withContainers(container(dq, relay, worker, defaultImage))
                        .addAllToVolumes(RedisTlsCa.of(dq).map(RedisTlsCa::volume).stream().toList())
                        .build())
                .build();
    }

    private static Container container(DelayQueue dq, OutboxRelaySpec relay, WorkerSpec worker, String defaultImage) {
        return DelayqProcess.container(CONTAINER, worker, defaultImage)
                .withArgs(COMMAND)
                .withEnv(OutboxRelayEnvironment.of(dq))
                .withResources(DelayqProcess.resources(relay.getResources(), "50m", "192Mi", "384Mi"))
                .addAllToVolumeMounts(RedisTlsCa.of(dq).map(ref -> RedisTlsCa.mount()).stream().toList())
                .build();
    }
}
