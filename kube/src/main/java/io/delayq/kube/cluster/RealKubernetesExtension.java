package io.delayq.kube.cluster;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** See {@link RealKubernetes}. */
public final class RealKubernetesExtension implements ExecutionCondition, ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RealKubernetesExtension.class);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        KubeBinaries.Found found = KubeBinaries.find(System.getenv());
        if (found.present() || "true".equals(System.getenv("CI"))) {
            // under CI a missing binary fails the tests (in cluster()), it does not skip them
            return ConditionEvaluationResult.enabled("Kubernetes binaries present, or CI=true");
        }
        return ConditionEvaluationResult.disabled(found.missing());
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RealCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster(context);
    }

    /** The cluster of this test run, started by the first class that asks. */
    public static RealCluster cluster(ExtensionContext context) {
        return context.getRoot().getStore(NS).getOrComputeIfAbsent(RealCluster.class, k -> new Shared(start()), Shared.class).cluster();
    }

    private static RealCluster start() {
        KubeBinaries.Found found = KubeBinaries.find(System.getenv());
        if (!found.present()) {
            throw new IllegalStateException(found.missing());
        }
        return RealCluster.start(found.binaries());
    }

    /** Closed by JUnit when the root context ends: after the last test class of the run. */
    private record Shared(RealCluster cluster) implements AutoCloseable {
        @Override
        public void close() {
            cluster.close();
        }
    }
}
