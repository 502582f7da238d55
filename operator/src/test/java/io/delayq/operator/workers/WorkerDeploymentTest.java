package io.delayq.operator.workers;

import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.resource.WorkerSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerDeploymentTest {
    private static final String IMAGE = "ghcr.io/delayq/delayq-worker:1.0.0";
    private static final ShardRange RANGE = new ShardRange(4, 7);

    private static Deployment desired(DelayQueue dq, int replicas) {
        return WorkerDeployment.desired(dq, RANGE, replicas, new TreeMap<>(), IMAGE);
    }

    private static Container container(Deployment d) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static String hash(Deployment d) {
        return d.getSpec().getTemplate().getMetadata().getAnnotations().get(ConfigHash.POD_TEMPLATE_ANNOTATION);
    }

    @Test
    void isNamedAfterTheResourceAndItsShardRange() {
        Deployment d = desired(DelayQueues.orders(), 2);

        assertThat(d.getMetadata().getName()).isEqualTo("orders-worker-4-7");
        assertThat(d.getMetadata().getNamespace()).isEqualTo("shop");
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    }

    @Test
    void carriesTheRecommendedLabelsOnDeploymentAndPods() {
        Deployment d = desired(DelayQueues.orders(), 1);

        for (var labels : List.of(d.getMetadata().getLabels(), d.getSpec().getTemplate().getMetadata().getLabels())) {
            assertThat(labels)
                    .containsEntry("app.kubernetes.io/name", "delayq-worker")
                    .containsEntry("app.kubernetes.io/instance", "orders")
                    .containsEntry("app.kubernetes.io/component", "worker")
                    .containsEntry("app.kubernetes.io/part-of", "delayq")
                    .containsEntry("app.kubernetes.io/managed-by", "delayq-operator")
                    .containsEntry("delayq.io/queue", "orders")
                    .containsEntry("delayq.io/shard-range", "4-7");
        }
        assertThat(d.getSpec().getSelector().getMatchLabels()).containsOnlyKeys(
                "app.kubernetes.io/name", "app.kubernetes.io/instance", "delayq.io/shard-range");
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void isOwnedByTheDelayQueueSoDeletionCascades() {
        OwnerReference owner = desired(DelayQueues.orders(), 1).getMetadata().getOwnerReferences().get(0);

        assertThat(owner.getKind()).isEqualTo("DelayQueue");
        assertThat(owner.getApiVersion()).isEqualTo("delayq.io/v1alpha1");
        assertThat(owner.getName()).isEqualTo("orders");
        assertThat(owner.getUid()).isEqualTo("uid-orders");
        assertThat(owner.getController()).isTrue();
        assertThat(owner.getBlockOwnerDeletion()).isTrue();
    }

    @Test
    void passesTheWorkerItsShardRangeAsEnvironment() {
        List<EnvVar> env = container(desired(DelayQueues.orders(), 1)).getEnv();

        assertThat(env).extracting(EnvVar::getName, EnvVar::getValue).contains(
                org.assertj.core.groups.Tuple.tuple("DELAYQ_REDIS_URL", "redis://redis.shop.svc:6379/0"),
                org.assertj.core.groups.Tuple.tuple("DELAYQ_QUEUE", "orders"),
                org.assertj.core.groups.Tuple.tuple("DELAYQ_SHARDS", "8"),
                org.assertj.core.groups.Tuple.tuple("DELAYQ_SHARD_FROM", "4"),
                org.assertj.core.groups.Tuple.tuple("DELAYQ_SHARD_TO", "7"),
                org.assertj.core.groups.Tuple.tuple("DELAYQ_HTTP_PORT", "8080"));
    }

    @Test
    void readsSecretsByReferenceOnly() {
        DelayQueue dq = DelayQueues.orders();
        CredentialsSecretRef ref = new CredentialsSecretRef("shop-redis");
        ref.setUsernameKey("user");
        dq.getSpec().getRedis().setCredentialsSecret(ref);

        List<EnvVar> env = container(desired(dq, 1)).getEnv();

        EnvVar password = env.stream().filter(e -> e.getName().equals("DELAYQ_REDIS_PASSWORD")).findFirst().orElseThrow();
        assertThat(password.getValue()).isNull();
        assertThat(password.getValueFrom().getSecretKeyRef().getName()).isEqualTo("shop-redis");
        assertThat(password.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("password");
        EnvVar user = env.stream().filter(e -> e.getName().equals("DELAYQ_REDIS_USERNAME")).findFirst().orElseThrow();
        assertThat(user.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("user");
    }

    private static DelayQueue withTlsCa(String secret, String key) {
        DelayQueue dq = DelayQueues.of("orders", 8, 4, "rediss://redis.shop.svc:6380/0");
        TlsCaSecretRef ref = new TlsCaSecretRef(secret);
        ref.setKey(key);
        dq.getSpec().getRedis().setTlsCaSecret(ref);
        return dq;
    }

    @Test
    void mountsThePrivateCaReadOnlyAndPointsTheWorkerAtIt() {
        Deployment d = desired(withTlsCa("redis-ca", "bundle.pem"), 1);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = container(d);

        Volume volume = pod.getVolumes().stream().filter(v -> RedisTlsCa.VOLUME.equals(v.getName())).findFirst().orElseThrow();
        assertThat(volume.getSecret().getSecretName()).isEqualTo("redis-ca");
        assertThat(volume.getSecret().getOptional()).as("no pod without its CA").isFalse();
        assertThat(volume.getSecret().getItems()).singleElement().satisfies(item -> {
            assertThat(item.getKey()).isEqualTo("bundle.pem");
            assertThat(item.getPath()).isEqualTo("ca.crt");
        });
        assertThat(volume.getSecret().getDefaultMode()).isEqualTo(0444);
        VolumeMount mount = c.getVolumeMounts().stream().filter(m -> RedisTlsCa.VOLUME.equals(m.getName())).findFirst().orElseThrow();
        assertThat(mount.getMountPath()).isEqualTo("/etc/delayq/redis-tls-ca");
        assertThat(mount.getReadOnly()).isTrue();
        assertThat(c.getEnv()).filteredOn(e -> e.getName().equals("DELAYQ_REDIS_TLS_CA")).singleElement()
                .satisfies(e -> assertThat(e.getValue()).isEqualTo("/etc/delayq/redis-tls-ca/ca.crt"));
    }

    @Test
    void theDefaultCaKeyIsCaCrt() {
        Deployment d = desired(withTlsCa("redis-ca", null), 1);

        assertThat(d.getSpec().getTemplate().getSpec().getVolumes()).filteredOn(v -> RedisTlsCa.VOLUME.equals(v.getName()))
                .singleElement().satisfies(v -> assertThat(v.getSecret().getItems().get(0).getKey()).isEqualTo("ca.crt"));
    }

    @Test
    void withoutACaThereIsNoCaVolumeMountOrVariable() {
        Deployment d = desired(DelayQueues.orders(), 1);

        assertThat(d.getSpec().getTemplate().getSpec().getVolumes()).extracting(Volume::getName).containsExactly("tmp");
        assertThat(container(d).getVolumeMounts()).extracting(VolumeMount::getName).containsExactly("tmp");
        assertThat(container(d).getEnv()).extracting(EnvVar::getName).doesNotContain("DELAYQ_REDIS_TLS_CA");
    }

    @Test
    void mountsTheKafkaCaAndClientCertificateReadOnlyWhereTheVariablesPoint() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setDelivery(io.delayq.operator.testing.Deliveries.kafkaWithEverything());
        Deployment d = desired(dq, 1);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = container(d);

        Volume ca = pod.getVolumes().stream().filter(v -> KafkaTls.CA_VOLUME.equals(v.getName())).findFirst().orElseThrow();
        assertThat(ca.getSecret().getSecretName()).isEqualTo("kafka-ca");
        assertThat(ca.getSecret().getOptional()).isFalse();
        assertThat(ca.getSecret().getItems()).singleElement().satisfies(item -> {
            assertThat(item.getKey()).isEqualTo("ca.pem");
            assertThat(item.getPath()).isEqualTo("ca.crt");
        });
        Volume client = pod.getVolumes().stream().filter(v -> KafkaTls.CLIENT_VOLUME.equals(v.getName())).findFirst().orElseThrow();
        assertThat(client.getSecret().getSecretName()).isEqualTo("kafka-client");
        assertThat(client.getSecret().getOptional()).isFalse();
        assertThat(client.getSecret().getItems()).extracting(i -> i.getKey() + "->" + i.getPath())
                .containsExactly("chain.pem->tls.crt", "key.pem->tls.key");
        assertThat(client.getSecret().getDefaultMode()).as("the private key is not world-readable").isEqualTo(0440);
        assertThat(pod.getSecurityContext().getFsGroup()).as("the worker's user reads it as the files' group").isEqualTo(PodSecurity.USER_ID);

        assertThat(c.getVolumeMounts()).filteredOn(m -> m.getName().startsWith("kafka-tls"))
                .extracting(m -> m.getName() + "@" + m.getMountPath() + (Boolean.TRUE.equals(m.getReadOnly()) ? " ro" : " rw"))
                .containsExactlyInAnyOrder("kafka-tls-ca@/etc/delayq/kafka-tls-ca ro", "kafka-tls-client@/etc/delayq/kafka-tls-client ro");
        java.util.Map<String, String> env = new java.util.HashMap<>();
        c.getEnv().stream().filter(e -> e.getValue() != null).forEach(e -> env.put(e.getName(), e.getValue()));
        assertThat(env).containsEntry("DELAYQ_KAFKA_TLS_CA", KafkaTls.CA_DIRECTORY + "/" + ca.getSecret().getItems().get(0).getPath())
                .containsEntry("DELAYQ_KAFKA_TLS_CERT", KafkaTls.CLIENT_DIRECTORY + "/tls.crt")
                .containsEntry("DELAYQ_KAFKA_TLS_KEY", KafkaTls.CLIENT_DIRECTORY + "/tls.key");
    }

    @Test
    void kafkaWithoutTlsSecretsMountsNothing() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setDelivery(io.delayq.operator.testing.Deliveries.kafka());
        Deployment d = desired(dq, 1);

        assertThat(d.getSpec().getTemplate().getSpec().getVolumes()).extracting(Volume::getName).containsExactly("tmp");
        assertThat(container(d).getVolumeMounts()).extracting(VolumeMount::getName).containsExactly("tmp");
    }

    @Test
    void aRotatedCaSecretRollsThePods() {
        DelayQueue dq = withTlsCa("redis-ca", null);
        String pem = io.delayq.operator.testing.FixtureCa.pem();
        java.util.function.Function<String, SortedMap<String, String>> versionsAt = version -> io.delayq.operator.reconcile.SecretCheck
                .of(dq, name -> new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName(name)
                        .withResourceVersion(version).endMetadata().addToStringData("ca.crt", pem).build())
                .versions();

        String before = hash(WorkerDeployment.desired(dq, RANGE, 1, versionsAt.apply("500"), IMAGE));
        String same = hash(WorkerDeployment.desired(dq, RANGE, 1, versionsAt.apply("500"), IMAGE));
        String rotated = hash(WorkerDeployment.desired(dq, RANGE, 1, versionsAt.apply("501"), IMAGE));

        assertThat(same).isEqualTo(before);
        assertThat(rotated).isNotEqualTo(before);
    }

    @Test
    void configHashChangesWithTheConfigurationButNotWithReplicas() {
        DelayQueue dq = DelayQueues.orders();
        String before = hash(desired(dq, 1));

        assertThat(hash(desired(dq, 5))).as("scaling rolls nothing").isEqualTo(before);
        assertThat(hash(desired(dq, 1))).as("deterministic").isEqualTo(before);

        dq.getSpec().setBatchSize(250);
        assertThat(hash(desired(dq, 1))).as("a spec change rolls the pods").isNotEqualTo(before);
    }

    @Test
    void configHashChangesWhenAReferencedSecretChanges() {
        DelayQueue dq = DelayQueues.orders();
        SortedMap<String, String> v1 = new TreeMap<>(java.util.Map.of("shop-redis", "100"));
        SortedMap<String, String> v2 = new TreeMap<>(java.util.Map.of("shop-redis", "101"));

        String first = hash(WorkerDeployment.desired(dq, RANGE, 1, v1, IMAGE));
        String rotated = hash(WorkerDeployment.desired(dq, RANGE, 1, v2, IMAGE));

        assertThat(rotated).isNotEqualTo(first);
    }

    @Test
    void deploymentHashIgnoresReplicasAndFollowsTheTemplate() {
        DelayQueue dq = DelayQueues.orders();
        String one = desired(dq, 1).getMetadata().getAnnotations().get(ConfigHash.DEPLOYMENT_ANNOTATION);

        assertThat(desired(dq, 3).getMetadata().getAnnotations().get(ConfigHash.DEPLOYMENT_ANNOTATION)).isEqualTo(one);
        dq.getSpec().setLease("45s");
        assertThat(desired(dq, 1).getMetadata().getAnnotations().get(ConfigHash.DEPLOYMENT_ANNOTATION)).isNotEqualTo(one);
    }

    @Test
    void probesTheWorkersHealthEndpoints() {
        Container c = container(desired(DelayQueues.orders(), 1));

        assertThat(c.getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("http");
            assertThat(p.getContainerPort()).isEqualTo(8080);
        });
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("http");
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    }

    @Test
    void runsUnderTheRestrictedPodSecurityProfile() {
        Deployment d = desired(DelayQueues.orders(), 1);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().get(0);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(c.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(c.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(c.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    }

    @Test
    void usesTheDefaultImageAndResourcesUnlessGiven() {
        DelayQueue dq = DelayQueues.orders();
        Container c = container(desired(dq, 1));
        assertThat(c.getImage()).isEqualTo(IMAGE);
        assertThat(c.getResources().getRequests()).containsEntry("memory", new Quantity("256Mi"));

        WorkerSpec worker = new WorkerSpec();
        worker.setImage("registry.example.com/coupons:2");
        worker.setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("1")).build());
        dq.getSpec().setWorker(worker);
        c = container(desired(dq, 1));
        assertThat(c.getImage()).isEqualTo("registry.example.com/coupons:2");
        assertThat(c.getResources().getRequests()).containsOnlyKeys("cpu");
    }

    @Test
    void givesThePodTimeToDrainBeyondTheShutdownGrace() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setShutdownGrace("2m");

        assertThat(desired(dq, 1).getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds()).isEqualTo(130L);
    }

    @Test
    void serialisesToPlainKubernetesJson() {
        String yaml = Serialization.asYaml(desired(DelayQueues.orders(), 1));

        assertThat(yaml).contains("kind: \"Deployment\"").contains("apiVersion: \"apps/v1\"");
    }
}
