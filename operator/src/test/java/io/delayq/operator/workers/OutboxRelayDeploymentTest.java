package io.delayq.operator.workers;

import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.OutboxRelayMode;
import io.delayq.operator.resource.OutboxRelaySpec;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.resource.WorkerSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.Deliveries;
import io.delayq.settings.WorkerSettings;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The outbox relay's own Deployment: only in mode Deployment, the workers' image running `delayq outbox-relay`. */
class OutboxRelayDeploymentTest {
    private static final String IMAGE = "ghcr.io/delayq/delayq-worker:1.0";

    private static DelayQueue withOutbox(OutboxRelayMode mode) {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setOutbox(Deliveries.outboxInItsOwnDeployment());
        dq.getSpec().getOutbox().getRelay().setMode(mode);
        CredentialsSecretRef redisAuth = new CredentialsSecretRef("redis-auth");
        dq.getSpec().getRedis().setCredentialsSecret(redisAuth);
        dq.getSpec().getRedis().setTlsCaSecret(new TlsCaSecretRef("redis-ca"));
        return dq;
    }

    private static SortedMap<String, String> versions(String... pairs) {
        SortedMap<String, String> v = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            v.put(pairs[i], pairs[i + 1]);
        }
        return v;
    }

    @Test
    void noDeploymentWithoutAnOutboxOrInModeWorkers() {
        assertThat(OutboxRelayDeployment.desired(DelayQueues.orders(), versions(), IMAGE)).isEmpty();
        assertThat(OutboxRelayDeployment.desired(withOutbox(OutboxRelayMode.Workers), versions(), IMAGE)).isEmpty();
        DelayQueue defaultRelay = DelayQueues.orders();
        defaultRelay.getSpec().setOutbox(Deliveries.outbox());
        assertThat(OutboxRelayDeployment.desired(defaultRelay, versions(), IMAGE)).as("no spec.outbox.relay: mode Workers").isEmpty();
        defaultRelay.getSpec().getOutbox().setRelay(new OutboxRelaySpec());
        assertThat(OutboxRelayDeployment.desired(defaultRelay, versions(), IMAGE)).as("mode defaults to Workers").isEmpty();
    }

    @Test
    void theDeploymentRunsTheRelayCommandOfTheWorkersImageOwnedByTheDelayQueue() {
        Deployment d = OutboxRelayDeployment.desired(withOutbox(OutboxRelayMode.Deployment), versions(), IMAGE).orElseThrow();
        assertThat(d.getMetadata().getName()).isEqualTo("orders-outbox-relay");
        assertThat(d.getMetadata().getNamespace()).isEqualTo("shop");
        assertThat(d.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("DelayQueue");
            assertThat(o.getUid()).isEqualTo("uid-orders");
            assertThat(o.getController()).isTrue();
        });
        assertThat(d.getMetadata().getLabels()).containsEntry(WorkerLabels.NAME, "delayq-outbox-relay")
                .containsEntry(WorkerLabels.INSTANCE, "orders").containsEntry(WorkerLabels.COMPONENT, "outbox-relay")
                .containsEntry(WorkerLabels.MANAGED_BY, WorkerLabels.OPERATOR_NAME).containsEntry(WorkerLabels.QUEUE, "orders");
        assertThat(d.getSpec().getSelector().getMatchLabels())
                .as("not the workers' selector: their Service, budget and scale subresource leave the relay out")
                .isEqualTo(Map.of(WorkerLabels.NAME, "delayq-outbox-relay", WorkerLabels.INSTANCE, "orders"))
                .doesNotContainEntry(WorkerLabels.NAME, WorkerLabels.WORKER_NAME);
        assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);

        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getImage()).isEqualTo(IMAGE);
        assertThat(c.getArgs()).containsExactly("outbox-relay");
        assertThat(c.getResources().getRequests()).containsExactly(Map.entry("cpu", new Quantity("20m")));
        assertThat(c.getResources().getLimits()).containsExactly(Map.entry("memory", new Quantity("300Mi")));
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(c.getVolumeMounts()).extracting(m -> m.getMountPath()).contains(RedisTlsCa.DIRECTORY);
        assertThat(d.getSpec().getTemplate().getSpec().getVolumes()).extracting(v -> v.getName()).contains(RedisTlsCa.VOLUME);
        assertThat(d.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken()).isFalse();

        WorkerSpec custom = new WorkerSpec();
        custom.setImage("registry.shop/handlers:7");
        DelayQueue withHandlerImage = withOutbox(OutboxRelayMode.Deployment);
        withHandlerImage.getSpec().setWorker(custom);
        assertThat(OutboxRelayDeployment.desired(withHandlerImage, versions(), IMAGE).orElseThrow()
                .getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).as("the workers' image").isEqualTo("registry.shop/handlers:7");
    }

    @Test
    void credentialsArriveBySecretReferenceAndTheWorkersGetNoOutboxSettings() {
        DelayQueue dq = withOutbox(OutboxRelayMode.Deployment);
        Container c = OutboxRelayDeployment.desired(dq, versions(), IMAGE).orElseThrow().getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertThat(env.get(WorkerSettings.OUTBOX_USER.name()).getValueFrom().getSecretKeyRef().getName()).isEqualTo("shop-db");
        assertThat(env.get(WorkerSettings.OUTBOX_PASSWORD.name()).getValueFrom().getSecretKeyRef().getKey()).isEqualTo("secret");
        assertThat(env.get(WorkerSettings.REDIS_PASSWORD.name()).getValueFrom().getSecretKeyRef().getName()).isEqualTo("redis-auth");
        assertThat(env.get(WorkerSettings.REDIS_TLS_CA.name()).getValue()).isEqualTo(RedisTlsCa.FILE);
        assertThat(env.get(WorkerSettings.OUTBOX_URL.name()).getValue()).isEqualTo("jdbc:postgresql://db.shop.svc:5432/shop");
        assertThat(env.get(WorkerSettings.QUEUE.name()).getValue()).isEqualTo("orders");
        assertThat(env.get(WorkerSettings.SHARDS.name()).getValue()).isEqualTo("8");
        assertThat(env.values()).filteredOn(e -> e.getValueFrom() == null).extracting(EnvVar::getValue).doesNotContain("secret", "login");

        assertThat(WorkerEnvironment.of(dq, new io.delayq.shard.ShardRange(0, 3))).extracting(EnvVar::getName)
                .doesNotContainAnyElementsOf(WorkerSettings.OUTBOX.stream().map(io.delayq.settings.Setting::name).toList());
        dq.getSpec().getOutbox().getRelay().setMode(OutboxRelayMode.Workers);
        assertThat(WorkerEnvironment.of(dq, new io.delayq.shard.ShardRange(0, 3))).extracting(EnvVar::getName)
                .contains(WorkerSettings.OUTBOX_URL.name(), WorkerSettings.OUTBOX_PASSWORD.name());
    }

    @Test
    void aNewVersionOfASecretTheRelayReadsRollsIt() {
        DelayQueue dq = withOutbox(OutboxRelayMode.Deployment);
        SortedMap<String, String> before = versions("shop-db", "1", "redis-auth", "1", "redis-ca", "1", "hook", "1");
        String hash = podHash(dq, before);
        assertThat(podHash(dq, before)).as("a pure function").isEqualTo(hash);
        assertThat(podHash(dq, versions("shop-db", "2", "redis-auth", "1", "redis-ca", "1", "hook", "1"))).isNotEqualTo(hash);
        assertThat(podHash(dq, versions("shop-db", "1", "redis-auth", "2", "redis-ca", "1", "hook", "1"))).isNotEqualTo(hash);
        assertThat(podHash(dq, versions("shop-db", "1", "redis-auth", "1", "redis-ca", "2", "hook", "1"))).isNotEqualTo(hash);
        assertThat(podHash(dq, versions("shop-db", "1", "redis-auth", "1", "redis-ca", "1", "hook", "2")))
                .as("a Secret only the workers read (the webhook's)").isEqualTo(hash);
    }

    @Test
    void defaultResourcesWhenNoneAreGiven() {
        DelayQueue dq = withOutbox(OutboxRelayMode.Deployment);
        dq.getSpec().getOutbox().getRelay().setResources(null);
        dq.getSpec().getOutbox().getRelay().setReplicas(1);
        Deployment d = OutboxRelayDeployment.desired(dq, versions(), IMAGE).orElseThrow();
        assertThat(d.getSpec().getReplicas()).isEqualTo(1);
        assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits())
                .containsEntry("memory", new Quantity("384Mi"));
    }

    private static String podHash(DelayQueue dq, SortedMap<String, String> versions) {
        return OutboxRelayDeployment.desired(dq, versions, IMAGE).orElseThrow()
                .getSpec().getTemplate().getMetadata().getAnnotations().get(ConfigHash.POD_TEMPLATE_ANNOTATION);
    }
}
