package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;
import java.util.Map;

/** Pod settings of the worker Deployments. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkerSpec {
    @JsonPropertyDescription("Worker image; defaults to ghcr.io/delayq/delayq-worker at the operator's version.")
    @Size(min = 1, max = 1024)
    private String image;

    @JsonPropertyDescription("Always, IfNotPresent or Never.")
    private PullPolicy imagePullPolicy;

    @JsonPropertyDescription("Secrets for pulling the image.")
    @Size(max = 16)
    private List<LocalObjectReference> imagePullSecrets;

    @JsonPropertyDescription("CPU and memory of each worker pod; defaults to requests of 100m CPU and 256Mi memory and a 512Mi memory limit.")
    private ResourceRequirements resources;

    @JsonPropertyDescription("Extra environment variables (for a custom handler). DELAYQ_* variables are set by the operator and may not be given here.")
    @Size(max = 100)
    @ValidationRule(value = "self.all(e, !e.name.startsWith('DELAYQ_'))",
            message = "spec.worker.env must not set DELAYQ_* variables: the operator sets them from the spec")
    private List<EnvVar> env;

    @JsonPropertyDescription("Node labels the worker pods must run on.")
    private Map<String, String> nodeSelector;

    @JsonPropertyDescription("Tolerations of the worker pods.")
    @Size(max = 32)
    private List<Toleration> tolerations;

    @JsonPropertyDescription("Service account of the worker pods (workers need no Kubernetes API access; its token is not mounted).")
    @Size(max = 253)
    private String serviceAccountName;

    @JsonPropertyDescription("Priority class of the worker pods.")
    @Size(max = 253)
    private String priorityClassName;

    @JsonPropertyDescription("Extra annotations on the worker pods.")
    private Map<String, String> podAnnotations;

    public String getImage() {
        return image;
    }

    public void setImage(String image) {
        this.image = image;
    }

    public PullPolicy getImagePullPolicy() {
        return imagePullPolicy;
    }

    public void setImagePullPolicy(PullPolicy imagePullPolicy) {
        this.imagePullPolicy = imagePullPolicy;
    }

    public List<LocalObjectReference> getImagePullSecrets() {
        return imagePullSecrets;
    }

    public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
        this.imagePullSecrets = imagePullSecrets;
    }

    public ResourceRequirements getResources() {
        return resources;
    }

    public void setResources(ResourceRequirements resources) {
        this.resources = resources;
    }

    public List<EnvVar> getEnv() {
        return env;
    }

    public void setEnv(List<EnvVar> env) {
        this.env = env;
    }

    public Map<String, String> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public String getServiceAccountName() {
        return serviceAccountName;
    }

    public void setServiceAccountName(String serviceAccountName) {
        this.serviceAccountName = serviceAccountName;
    }

    public String getPriorityClassName() {
        return priorityClassName;
    }

    public void setPriorityClassName(String priorityClassName) {
        this.priorityClassName = priorityClassName;
    }

    public Map<String, String> getPodAnnotations() {
        return podAnnotations;
    }

    public void setPodAnnotations(Map<String, String> podAnnotations) {
        this.podAnnotations = podAnnotations;
    }
}
