package io.delayq.operator.workers;

import io.delayq.operator.resource.ClientCertificateSecretRef;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.KafkaSpec;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Kafka delivery's TLS files in a worker pod: the CA of {@code spec.delivery.kafka.tlsCaSecret} and the client
 * certificate and key of {@code tlsClientSecret}, each Secret key a read-only file at a fixed path, which the worker
 * reads through DELAYQ_KAFKA_TLS_CA / _CERT / _KEY. Fixed file names, so the variables never depend on the user's
 * key names.
 */
public final class KafkaTls {
    static final String CA_VOLUME = "kafka-tls-ca";
    static final String CLIENT_VOLUME = "kafka-tls-client";
    public static final String CA_DIRECTORY = "/etc/delayq/kafka-tls-ca";
    public static final String CLIENT_DIRECTORY = "/etc/delayq/kafka-tls-client";
    public static final String CA_FILE = CA_DIRECTORY + "/ca.crt";
    public static final String CERT_FILE = CLIENT_DIRECTORY + "/tls.crt";
    public static final String KEY_FILE = CLIENT_DIRECTORY + "/tls.key";
    /** A CA certificate is public. */
    static final int CA_MODE = 0444;
    /** The private key: owner and group only; the pod's fsGroup makes the worker's user its group. */
    static final int CLIENT_MODE = 0440;

    private KafkaTls() {
    }

    /** The Kafka settings when the queue delivers to Kafka. */
    static Optional<KafkaSpec> of(DelayQueue dq) {
        DeliverySpec delivery = dq.getSpec().getDelivery();
        return delivery != null && delivery.getType() == DeliveryType.Kafka ? Optional.ofNullable(delivery.getKafka()) : Optional.empty();
    }

    static Optional<TlsCaSecretRef> ca(DelayQueue dq) {
        return of(dq).map(KafkaSpec::getTlsCaSecret);
    }

    static Optional<ClientCertificateSecretRef> client(DelayQueue dq) {
        return of(dq).map(KafkaSpec::getTlsClientSecret);
    }

    static List<Volume> volumes(DelayQueue dq) {
        List<Volume> volumes = new ArrayList<>();
        ca(dq).ifPresent(ref -> volumes.add(new VolumeBuilder().withName(CA_VOLUME)
                .withNewSecret()
                    .withSecretName(ref.getName())
                    .addNewItem().withKey(Objects.requireNonNullElse(ref.getKey(), TlsCaSecretRef.DEFAULT_KEY)).withPath("ca.crt").endItem()
                    .withDefaultMode(CA_MODE)
                    .withOptional(false)
                .endSecret()
                .build()));
        client(dq).ifPresent(ref -> volumes.add(new VolumeBuilder().withName(CLIENT_VOLUME)
                .withNewSecret()
                    .withSecretName(ref.getName())
                    .addNewItem().withKey(Objects.requireNonNullElse(ref.getCertKey(), ClientCertificateSecretRef.DEFAULT_CERT_KEY))
                        .withPath("tls.crt").endItem()
                    .addNewItem().withKey(Objects.requireNonNullElse(ref.getKeyKey(), ClientCertificateSecretRef.DEFAULT_KEY_KEY))
                        .withPath("tls.key").endItem()
                    .withDefaultMode(CLIENT_MODE)
                    .withOptional(false)
                .endSecret()
                .build()));
        return volumes;
    }

    static List<VolumeMount> mounts(DelayQueue dq) {
        List<VolumeMount> mounts = new ArrayList<>();
        ca(dq).ifPresent(ref -> mounts.add(new VolumeMountBuilder().withName(CA_VOLUME).withMountPath(CA_DIRECTORY).withReadOnly(true).build()));
        client(dq).ifPresent(ref -> mounts.add(new VolumeMountBuilder().withName(CLIENT_VOLUME).withMountPath(CLIENT_DIRECTORY)
                .withReadOnly(true).build()));
        return mounts;
    }
}
