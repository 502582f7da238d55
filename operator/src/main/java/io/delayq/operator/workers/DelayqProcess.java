package io.delayq.operator.workers;

import io.delayq.operator.resource.WorkerSpec;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;

import java.util.Map;

/**
 * What every pod that runs the {@code delayq} executable shares, whichever command it runs (a worker, the outbox
 * relay): where it may be scheduled and as whom ({@code spec.worker}), the scrape annotations, the HTTP port with its
 * probes, the locked-down security contexts and the writable {@code /tmp}.
 */
final class DelayqProcess {
    private DelayqProcess() {
    }

    static void addScrapeAnnotations(Map<String, String> annotations) {
        annotations.put("prometheus.io/scrape", "true");
        annotations.put("prometheus.io/port", String.valueOf(WorkerEnvironment.HTTP_PORT));
        annotations.put("prometheus.io/path", "/metrics");
    }

    /** The pod's placement, identity and security, and its {@code /tmp} of {@code tmpSize}; the caller adds its container. */
    static PodSpecBuilder podSpec(WorkerSpec worker, long terminationGraceSeconds, String tmpSize) {
        return new PodSpecBuilder()
                .withServiceAccountName(worker.getServiceAccountName())
                // delayq processes talk to Redis (and a database) only; a mounted API token would be an unused credential
                .withAutomountServiceAccountToken(false)
                .withPriorityClassName(worker.getPriorityClassName())
                .withNodeSelector(worker.getNodeSelector())
                .withTolerations(worker.getTolerations())
                .withImagePullSecrets(worker.getImagePullSecrets())
                .withTerminationGracePeriodSeconds(terminationGraceSeconds)
                .withSecurityContext(PodSecurity.pod())
                .addNewVolume().withName("tmp").withNewEmptyDir().withSizeLimit(new Quantity(tmpSize)).endEmptyDir().endVolume();
    }

    /** The container: image, HTTP port, probes, security and {@code /tmp}; the caller adds its command, environment and mounts. */
    static ContainerBuilder container(String name, WorkerSpec worker, String defaultImage) {
        return new ContainerBuilder()
                .withName(name)
                .withImage(worker.getImage() != null ? worker.getImage() : defaultImage)
                .withImagePullPolicy(worker.getImagePullPolicy() == null ? null : worker.getImagePullPolicy().name())
                .addNewPort().withName("http").withContainerPort(WorkerEnvironment.HTTP_PORT).withProtocol("TCP").endPort()
                // Generous start-up budget for the JVM, then a quick liveness check.
                .withStartupProbe(probe("/healthz", 2, 30))
                .withLivenessProbe(probe("/healthz", 10, 3))
                .withReadinessProbe(probe("/readyz", 5, 2))
                .withSecurityContext(PodSecurity.container())
                // A process that cannot start says why in one line on stderr: as the termination message it reaches
                // the pod's lastState, which the operator copies into the DelayQueue's Degraded condition.
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount();
    }

    private static Probe probe(String path, int periodSeconds, int failureThreshold) {
        return new ProbeBuilder()
                .withNewHttpGet().withPath(path).withPort(new IntOrString("http")).endHttpGet()
                .withPeriodSeconds(periodSeconds)
                .withTimeoutSeconds(2)
                .withFailureThreshold(failureThreshold)
                .build();
    }

    /** The resources the spec gives, or these defaults when it gives neither requests nor limits. */
    static ResourceRequirements resources(ResourceRequirements given, String cpuRequest, String memoryRequest, String memoryLimit) {
        if (given != null && (given.getRequests() != null && !given.getRequests().isEmpty()
                || given.getLimits() != null && !given.getLimits().isEmpty())) {
            return given;
        }
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity(cpuRequest))
                .addToRequests("memory", new Quantity(memoryRequest))
                .addToLimits("memory", new Quantity(memoryLimit))
                .build();
    }
}
