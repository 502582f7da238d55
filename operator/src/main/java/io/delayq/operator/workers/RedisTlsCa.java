package io.delayq.operator.workers;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.RedisSpec;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

import java.util.Objects;
import java.util.Optional;

/**
 * The private CA of {@code spec.redis.tlsCaSecret} in a worker pod: the Secret's key as a read-only
 * file at {@link #FILE}, which the worker reads through {@code DELAYQ_REDIS_TLS_CA}. The file name is
 * fixed whatever the key is called, so the variable's value never depends on the user's naming.
 */
public final class RedisTlsCa {
    public static final String VOLUME = "redis-tls-ca";
    public static final String DIRECTORY = "/etc/delayq/redis-tls-ca";
    public static final String FILE_NAME = "ca.crt";
    public static final String FILE = DIRECTORY + "/" + FILE_NAME;
    /** World-readable: a CA certificate is public, and the pod's user id must read it whatever the fsGroup. */
    static final int FILE_MODE = 0444;

    private RedisTlsCa() {
    }

    static Optional<TlsCaSecretRef> of(DelayQueue dq) {
        return Optional.ofNullable(dq.getSpec().getRedis()).map(RedisSpec::getTlsCaSecret);
    }

    static Volume volume(TlsCaSecretRef ref) {
        return new VolumeBuilder().withName(VOLUME)
                .withNewSecret()
                    .withSecretName(ref.getName())
                    .addNewItem().withKey(Objects.requireNonNullElse(ref.getKey(), TlsCaSecretRef.DEFAULT_KEY)).withPath(FILE_NAME).endItem()
                    .withDefaultMode(FILE_MODE)
                    // A missing Secret or key keeps the pod from starting, as a missing credential does.
                    .withOptional(false)
                .endSecret()
                .build();
    }

    static VolumeMount mount() {
        return new VolumeMountBuilder().withName(VOLUME).withMountPath(DIRECTORY).withReadOnly(true).build();
    }
}
