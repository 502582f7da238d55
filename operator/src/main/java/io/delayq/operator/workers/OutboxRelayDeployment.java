package io.delayq.operator.workers;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.OutboxRelaySpec;
import io.delayq.operator.resource.OutboxSpec;
import io.delayq.operator.resource.WorkerSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
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
        WorkerSpec worker = dq.getSpec().getWorker() == null ? new WorkerSpec() : dq.getSpec().getWorker();
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("prometheus.io/scrape", "true");
        annotations.put("prometheus.io/port", String.valueOf(WorkerEnvironment.HTTP_PORT));
        annotations.put("prometheus.io/path", "/metrics");
        // where the worker pods run, pull from and as whom: the relay runs the same image
        return new PodTemplateSpecBuilder()
                .withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
                .withNewSpec()
                    .withServiceAccountName(worker.getServiceAccountName())
                    .withAutomountServiceAccountToken(false)
                    .withPriorityClassName(worker.getPriorityClassName())
                    .withNodeSelector(worker.getNodeSelector())
                    .withTolerations(worker.getTolerations())
                    .withImagePullSecrets(worker.getImagePullSecrets())
                    .withTerminationGracePeriodSeconds(TERMINATION_GRACE_SECONDS)
                    .withSecurityContext(PodSecurity.pod())
                    .withContainers(container(dq, relay, worker, defaultImage))
                    .addNewVolume().withName("tmp").withNewEmptyDir().withSizeLimit(new Quantity("64Mi")).endEmptyDir().endVolume()
                    .addAllToVolumes(RedisTlsCa.of(dq).map(RedisTlsCa::volume).stream().toList())
                .endSpec()
                .build();
    }

    private static Container container(DelayQueue dq, OutboxRelaySpec relay, WorkerSpec worker, String defaultImage) {
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(worker.getImage() != null ? worker.getImage() : defaultImage)
                .withImagePullPolicy(worker.getImagePullPolicy() == null ? null : worker.getImagePullPolicy().name())
                .withArgs(COMMAND)
                .addNewPort().withName("http").withContainerPort(WorkerEnvironment.HTTP_PORT).withProtocol("TCP").endPort()
                .withEnv(OutboxRelayEnvironment.of(dq))
                .withResources(resources(relay.getResources()))
                .withStartupProbe(probe("/healthz", 2, 30))
                .withLivenessProbe(probe("/healthz", 10, 3))
                .withReadinessProbe(probe("/readyz", 5, 2))
                .withSecurityContext(PodSecurity.container())
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .addAllToVolumeMounts(RedisTlsCa.of(dq).map(ref -> RedisTlsCa.mount()).stream().toList())
                .build();
    }

    private static Probe probe(String path, int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath(path).withPort(new IntOrString("http")).endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withTimeoutSeconds(3)
                .withFailureThreshold(failureThreshold)
                .build();
    }

    static ResourceRequirements resources(ResourceRequirements given) {
        if (given != null && (given.getRequests() != null && !given.getRequests().isEmpty()
                || given.getLimits() != null && !given.getLimits().isEmpty())) {
            return given;
        }
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("50m"))
                .addToRequests("memory", new Quantity("192Mi"))
                .addToLimits("memory", new Quantity("384Mi"))
                .build();
    }
}
