package io.delayq.operator.workers;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/**
 * Security settings that satisfy the Pod Security Standards' "restricted" profile, so worker pods
 * run in namespaces that enforce it. The root filesystem is read-only; the JVM gets a /tmp volume.
 */
public final class PodSecurity {
    /** A fixed non-root id: an image whose USER is a name would otherwise fail runAsNonRoot. */
    public static final long USER_ID = 10001;

    private PodSecurity() {
    }

    public static PodSecurityContext pod() {
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withRunAsUser(USER_ID)
                .withRunAsGroup(USER_ID)
                .withFsGroup(USER_ID)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }

    public static SecurityContext container() {
        return new SecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withPrivileged(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }
}
