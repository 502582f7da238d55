package io.delayq.operator.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * What the operator needs from the API server it meets, read once at start from discovery: the APIs it cannot
 * work without, and the optional ones it manages only where they are served (PodDisruptionBudget in
 * {@code policy/v1}, from Kubernetes 1.21). A pure function of "is this kind served?", so that every supported
 * and unsupported server is a unit test.
 *
 * @param disruptionBudgets whether {@code policy/v1} PodDisruptionBudgets are served
 * @param missing           the required APIs that are not served, as {@code apiVersion kind}
 */
public record ServedApis(boolean disruptionBudgets, List<String> missing) {
    public static final String DISRUPTION_BUDGET_API = "policy/v1";

    /** Every API the operator uses and cannot do without. */
    static List<String[]> required(boolean leaderElection) {
        List<String[]> apis = new ArrayList<>(List.of(
                new String[]{"delayq.io/v1alpha1", "DelayQueue"},
                new String[]{"apps/v1", "Deployment"},
                new String[]{"v1", "Service"},
                new String[]{"v1", "Secret"},
                new String[]{"v1", "Pod"},
                new String[]{"v1", "Event"}));
        if (leaderElection) {
            apis.add(new String[]{"coordination.k8s.io/v1", "Lease"});
        }
        return apis;
    }

    /** @param served whether the server serves a kind in an apiVersion */
    public static ServedApis of(BiPredicate<String, String> served, boolean leaderElection) {
        List<String> missing = required(leaderElection).stream()
                .filter(api -> !served.test(api[0], api[1]))
                .map(api -> api[0] + " " + api[1])
                .toList();
        return new ServedApis(served.test(DISRUPTION_BUDGET_API, "PodDisruptionBudget"), missing);
    }

    /** Every API a cluster that is new enough serves. */
    public static ServedApis all() {
        return new ServedApis(true, List.of());
    }

    /**
     * The one line the operator exits with when a required API is missing, with what to do about it;
     * null when nothing is missing.
     */
    public String missingMessage() {
        if (missing.isEmpty()) {
            return null;
        }
        boolean noCrd = missing.stream().anyMatch(m -> m.startsWith("delayq.io/"));
        return "the Kubernetes API server does not serve " + String.join(", ", missing)
                + (noCrd ? " (install the DelayQueue CRD with the Helm chart, or kubectl apply -f crds/delayqueues.delayq.io-v1.yml, adding --validate=false before Kubernetes 1.25)" : "")
                + "; the operator needs Kubernetes 1.20 or later (docs/kubernetes.md, Supported Kubernetes versions)";
    }
}
