package io.delayq.operator.workers;

import io.delayq.DurationText;
import io.delayq.claim.RateLimit;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DeadLetterSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.HandlerSpec;
import io.delayq.operator.resource.RateLimitSpec;
import io.delayq.operator.resource.RetrySpec;
import io.delayq.operator.resource.SchedulePlannerSpec;
import io.delayq.operator.resource.SecretKeyRef;
import io.delayq.operator.resource.StreamSpec;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.resource.WebhookSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.settings.Setting;
import io.delayq.settings.WorkerSettings;
import io.delayq.shard.ShardRange;
import io.delayq.worker.config.DeliveryKind;
import io.delayq.worker.config.WorkerConfig;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker contract end to end without a cluster: a {@code DelayQueue} → {@link WorkerEnvironment}
 * (what the operator puts in the pod) → the pod's environment, Secret references resolved as the
 * kubelet would → the worker's own {@link WorkerConfig#fromEnv} → the same settings the resource asked for.
 */
class WorkerContractRoundTripTest {
    private static final ShardRange RANGE = new ShardRange(4, 7);
    private static final Map<String, String> SECRETS = Map.of(
            "redis-auth/user", "delayq-worker", "redis-auth/pass", "p@ss:w/rd", "hook/hmac", "s3cret-hmac");

    /** The pod's environment as the container sees it: values, and Secret keys read from {@link #SECRETS}. */
    private static Map<String, String> podEnvironment(List<EnvVar> vars) {
        Map<String, String> env = new HashMap<>();
        for (EnvVar v : vars) {
            if (v.getValueFrom() != null) {
                SecretKeySelector ref = v.getValueFrom().getSecretKeyRef();
                String value = SECRETS.get(ref.getName() + "/" + ref.getKey());
                assertThat(value).as("%s references %s/%s, which the test's Secrets hold", v.getName(), ref.getName(), ref.getKey()).isNotNull();
                env.put(v.getName(), value);
            } else {
                env.put(v.getName(), v.getValue());
            }
        }
        return env;
    }

    private static WorkerConfig roundTrip(DelayQueue dq) {
        return WorkerConfig.fromEnv(podEnvironment(WorkerEnvironment.of(dq, RANGE)));
    }

    private static Set<String> namesWritten(DelayQueue dq) {
        return WorkerEnvironment.of(dq, RANGE).stream().map(EnvVar::getName).collect(Collectors.toCollection(TreeSet::new));
    }

    /** A resource with every field the worker reads set away from its default. */
    private static DelayQueue everyFieldSet(DeliverySpec delivery) {
        DelayQueue dq = DelayQueues.of("payouts", 12, 4, "rediss://redis.shop.svc:6380/0");
        dq.getSpec().setQueueName("payouts-eu");
        DelayQueueSpec spec = dq.getSpec();
        CredentialsSecretRef credentials = new CredentialsSecretRef("redis-auth");
        credentials.setUsernameKey("user");
        credentials.setPasswordKey("pass");
        spec.getRedis().setCredentialsSecret(credentials);
        spec.getRedis().setTlsCaSecret(new TlsCaSecretRef("redis-ca"));
        spec.setBatchSize(250);
        spec.setPollInterval("750ms");
        spec.setLease("2m");
        spec.setClaimAhead("250ms");
        spec.setConcurrency(64);
        spec.setHandlerTimeout("10m");
        spec.setShutdownGrace("45s");
        RetrySpec retry = new RetrySpec();
        retry.setMaxAttempts(9);
        retry.setInitialBackoff("2s");
        retry.setMaxBackoff("1h");
        retry.setMultiplier(3.5);
        retry.setJitter(0.05);
        spec.setRetry(retry);
        DeadLetterSpec dead = new DeadLetterSpec();
        dead.setMaxCount(5000);
        dead.setMaxAge("3d");
        spec.setDeadLetter(dead);
        RateLimitSpec rate = new RateLimitSpec();
        rate.setPerSecond(120.5);
        rate.setBurst(300);
        rate.setPerGroupPerSecond(7.5);
        rate.setPerGroupBurst(20);
        spec.setRateLimit(rate);
        SchedulePlannerSpec planner = new SchedulePlannerSpec();
        planner.setInterval("10s");
        planner.setHorizon("5m");
        planner.setMisfireThreshold("30s");
        spec.setSchedulePlanner(planner);
        spec.setDelivery(delivery);
        return dq;
    }

    private static DeliverySpec handler() {
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Handler);
        HandlerSpec handler = new HandlerSpec();
        handler.setClassName("com.example.payouts.PayoutHandler");
        handler.setPath("/opt/handlers:/opt/extra/payout-rules.jar");
        delivery.setHandler(handler);
        return delivery;
    }

    private static DeliverySpec webhook() {
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Webhook);
        WebhookSpec webhook = new WebhookSpec();
        webhook.setUrl("https://payouts.example.com/due");
        webhook.setTimeout("3s");
        webhook.setSigningSecret(new SecretKeyRef("hook", "hmac"));
        delivery.setWebhook(webhook);
        return delivery;
    }

    private static DeliverySpec stream() {
        DeliverySpec delivery = new DeliverySpec();
        delivery.setType(DeliveryType.Stream);
        StreamSpec stream = new StreamSpec();
        stream.setKey("payouts:ready");
        stream.setMaxLength(50_000L);
        delivery.setStream(stream);
        return delivery;
    }

    private static Duration d(String text) {
        return DurationText.parse(text);
    }

    @Test
    void everySpecFieldReachesTheWorkerWithItsMeaning() {
        WorkerConfig c = roundTrip(everyFieldSet(handler()));

        assertThat(c.redisUrl()).isEqualTo("rediss://delayq-worker:p%40ss%3Aw%2Frd@redis.shop.svc:6380/0");
        assertThat(c.redisTlsCa()).isEqualTo(Path.of(RedisTlsCa.FILE));
        assertThat(c.queue()).isEqualTo("payouts-eu");
        assertThat(c.shards()).isEqualTo(12);
        assertThat(c.range()).isEqualTo(RANGE);
        assertThat(c.batchSize()).isEqualTo(250);
        assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(750));
        assertThat(c.lease()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.concurrency()).isEqualTo(64);
        assertThat(c.claimAhead()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.handlerTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(c.shutdownGrace()).isEqualTo(Duration.ofSeconds(45));
        assertThat(c.retry().maxAttempts()).isEqualTo(9);
        assertThat(c.retry().initial()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.retry().max()).isEqualTo(Duration.ofHours(1));
        assertThat(c.retry().multiplier()).isEqualTo(3.5);
        assertThat(c.retry().jitter()).isEqualTo(0.05);
        assertThat(c.deadLetters().maxCount()).isEqualTo(5000);
        assertThat(c.deadLetters().maxAge()).isEqualTo(Duration.ofDays(3));
        assertThat(c.rateLimit()).isEqualTo(new RateLimit(120.5, 300, 7.5, 20));
        assertThat(c.scheduleInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.scheduleRules().horizon()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.scheduleRules().misfireThreshold()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.httpPort()).isEqualTo(WorkerEnvironment.HTTP_PORT);
        assertThat(c.delivery()).isEqualTo(DeliveryKind.HANDLER);
        assertThat(c.handlerClass()).isEqualTo("com.example.payouts.PayoutHandler");
        assertThat(c.handlerPath().entries()).containsExactly(Path.of("/opt/handlers"), Path.of("/opt/extra/payout-rules.jar"));
    }

    @Test
    void webhookAndStreamDeliveryReachTheWorker() {
        WorkerConfig hook = roundTrip(everyFieldSet(webhook()));
        assertThat(hook.delivery()).isEqualTo(DeliveryKind.WEBHOOK);
        assertThat(hook.webhookUrl()).isEqualTo(URI.create("https://payouts.example.com/due"));
        assertThat(hook.webhookTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(hook.webhookSecret()).isEqualTo("s3cret-hmac");

        WorkerConfig stream = roundTrip(everyFieldSet(stream()));
        assertThat(stream.delivery()).isEqualTo(DeliveryKind.STREAM);
        assertThat(stream.streamKey()).isEqualTo("payouts:ready");
        assertThat(stream.streamMaxLen()).isEqualTo(50_000L);
    }

    @Test
    void theResourceDefaultsAreTheWorkerDefaults() {
        // a resource that sets only what it must: every value the operator writes for it is the one
        // the worker would have chosen on its own
        DelayQueue dq = DelayQueues.of("orders", 8, null, "redis://redis.shop.svc:6379/0");
        dq.getSpec().setDelivery(stream());
        WorkerConfig fromOperator = roundTrip(dq);
        Map<String, String> required = new HashMap<>(Map.of(WorkerSettings.REDIS_URL.name(), "redis://redis.shop.svc:6379/0",
                WorkerSettings.QUEUE.name(), "orders", WorkerSettings.SHARDS.name(), "8",
                WorkerSettings.SHARD_FROM.name(), "4", WorkerSettings.SHARD_TO.name(), "7",
                WorkerSettings.DELIVERY.name(), "stream", WorkerSettings.STREAM_KEY.name(), "payouts:ready",
                WorkerSettings.STREAM_MAXLEN.name(), "50000"));
        WorkerConfig workerDefaults = WorkerConfig.fromEnv(required);

        for (RecordComponent component : WorkerConfig.class.getRecordComponents()) {
            Object written = value(component, fromOperator);
            Object alone = value(component, workerDefaults);
            if (component.getName().equals("handlerPath")) {
                assertThat(fromOperator.handlerPath().entries()).isEqualTo(workerDefaults.handlerPath().entries());
            } else {
                assertThat(written).as(component.getName()).isEqualTo(alone);
            }
        }
    }

    @Test
    void everyVariableTheOperatorWritesIsInTheContractAndTheContractIsCovered() {
        Set<String> contract = WorkerSettings.ALL.stream().map(Setting::name).collect(Collectors.toCollection(TreeSet::new));
        Set<String> written = new TreeSet<>();
        for (DeliverySpec delivery : List.of(handler(), webhook(), stream())) {
            written.addAll(namesWritten(everyFieldSet(delivery)));
        }

        assertThat(contract).containsAll(written);
        // what the operator never writes, on purpose: a file of the same keys, the name used outside
        // delayq, and a testing hook
        Set<String> notWritten = new TreeSet<>(contract);
        notWritten.removeAll(written);
        assertThat(notWritten).containsExactlyInAnyOrder(WorkerSettings.CONFIG_FILE.name(), WorkerSettings.REDIS_URL_FALLBACK.name(),
                WorkerSettings.CLOCK_SKEW.name());
    }

    @Test
    void theSchemaDefaultsAreTheContractDefaults() {
        DelayQueueSpec spec = new DelayQueueSpec();
        assertThat(spec.getBatchSize()).isEqualTo(WorkerSettings.BATCH_SIZE.fallback());
        // no schema default: the worker chooses by delivery type (below)
        assertThat(spec.getConcurrency()).isNull();
        // no schema default: the worker shortens its default for a short lease (below)
        assertThat(spec.getClaimAhead()).isNull();
        assertThat(d(spec.getPollInterval())).isEqualTo(WorkerSettings.POLL_INTERVAL.fallback());
        assertThat(d(spec.getLease())).isEqualTo(WorkerSettings.LEASE.fallback());
        assertThat(d(spec.getHandlerTimeout())).isEqualTo(WorkerSettings.HANDLER_TIMEOUT.fallback());
        assertThat(d(spec.getShutdownGrace())).isEqualTo(WorkerSettings.SHUTDOWN_GRACE.fallback());
        assertThat(spec.getRetry().getMaxAttempts()).isEqualTo(WorkerSettings.RETRY_MAX_ATTEMPTS.fallback());
        assertThat(spec.getRetry().getMultiplier()).isEqualTo(WorkerSettings.RETRY_BACKOFF_MULTIPLIER.fallback());
        assertThat(spec.getRetry().getJitter()).isEqualTo(WorkerSettings.RETRY_JITTER.fallback());
        assertThat(spec.getDeadLetter().getMaxCount()).isEqualTo(WorkerSettings.DEAD_LETTER_MAX_COUNT.fallback());
    }

    @Test
    void concurrencyLeftOutIsTheWorkersDefaultForTheDeliveryType() {
        DelayQueue withHandler = DelayQueues.of("payouts", 12, 4, "redis://redis.shop.svc:6379/0");
        withHandler.getSpec().setDelivery(handler());
        DelayQueue withWebhook = DelayQueues.of("payouts", 12, 4, "redis://redis.shop.svc:6379/0");
        withWebhook.getSpec().setDelivery(webhook());

        assertThat(namesWritten(withWebhook)).doesNotContain(WorkerSettings.CONCURRENCY.name());
        assertThat(roundTrip(withHandler).concurrency()).isEqualTo(WorkerSettings.DEFAULT_CONCURRENCY);
        assertThat(roundTrip(withWebhook).concurrency()).isEqualTo(WorkerSettings.DEFAULT_WEBHOOK_CONCURRENCY);
        withWebhook.getSpec().setConcurrency(32);
        assertThat(roundTrip(withWebhook).concurrency()).isEqualTo(32);
    }

    @Test
    void claimAheadLeftOutIsTheWorkersDefaultShortenedForAShortLease() {
        DelayQueue dq = DelayQueues.of("payouts", 12, 4, "redis://redis.shop.svc:6379/0");
        dq.getSpec().setDelivery(stream());
        assertThat(namesWritten(dq)).doesNotContain(WorkerSettings.CLAIM_AHEAD.name());
        assertThat(roundTrip(dq).claimAhead()).isEqualTo(d(WorkerSettings.DEFAULT_CLAIM_AHEAD));
        dq.getSpec().setLease("500ms");
        assertThat(roundTrip(dq).claimAhead()).as("a tenth of the lease").isEqualTo(Duration.ofMillis(50));
        dq.getSpec().setClaimAhead("0s");
        assertThat(roundTrip(dq).claimAhead()).isZero();
    }

    private static Object value(RecordComponent component, WorkerConfig config) {
        try {
            return component.getAccessor().invoke(config);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
