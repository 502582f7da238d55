package io.delayq.kube.cluster;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a test class against the shared {@link RealCluster} (a {@code RealCluster} parameter or field gets it):
 * started once per test JVM, stopped at its end. Skipped where the binaries are missing; under {@code CI=true}
 * it fails instead, so that a CI run cannot pass without a real Kubernetes.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealKubernetesExtension.class)
public @interface RealKubernetes {
}
