package io.delayq.operator.workers;

import io.delayq.DurationText;
import io.delayq.claim.GroupCaps;
import io.delayq.claim.RateLimit;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DeadLetterSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.GroupCapSpec;
import io.delayq.operator.resource.GroupWeightSpec;
import io.delayq.operator.resource.GroupsSpec;
import io.delayq.operator.resource.HandlerSpec;
import io.delayq.operator.resource.RateLimitSpec;
import io.delayq.operator.resource.RetrySpec;
import io.delayq.operator.resource.SchedulePlannerSpec;
import io.delayq.operator.resource.SecretKeyRef;
import io.delayq.operator.resource.StreamSpec;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.resource.WebhookSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.Deliveries;
import io.delayq.operator.testing.FixtureCa;
import io.delayq.delivery.kafka.KafkaTarget;
import io.delayq.outbox.backstop.BackstopQuery;
import io.delayq.outbox.relay.OutboxSettings;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.settings.Setting;
import io.delayq.settings.WorkerSettings;
import io.delayq.shard.ShardRange;
import io.delayq.worker.config.DeliveryKind;
import io.delayq.worker.config.WorkerConfig;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.nio.file.Files;
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
            "redis-auth/user", "delayq-worker", "redis-auth/pass", "p@ss:w/rd", "hook/hmac", "s3cret-hmac",
            "kafka-auth/user", "delayq-producer", "kafka-auth/pass", "k\"af\\ka", "shop-db/login", "relay", "shop-db/secret", "pg-s3cret");
    /** A PKCS#8 block as the Kafka delivery reads it (it checks the PEM form; the producer parses it when it connects). */
    private static final String CLIENT_KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIGYlVUSdnWyUfGqQmP5C8kS0kGeQ9mSOzRzjI6xyMcZ5\n-----END PRIVATE KEY-----\n";

    /** Where the test's kubelet mounts the Kafka TLS Secrets' files ({@code /etc/delayq} in a pod). */
    @TempDir
    static Path mounts;

    @BeforeAll
    static void mountTheKafkaTlsFiles() throws IOException {
        Files.createDirectories(podPath(KafkaTls.CA_FILE).getParent());
        Files.writeString(podPath(KafkaTls.CA_FILE), FixtureCa.pem());
        Files.createDirectories(podPath(KafkaTls.CERT_FILE).getParent());
        Files.writeString(podPath(KafkaTls.CERT_FILE), FixtureCa.pem());
        Files.writeString(podPath(KafkaTls.KEY_FILE), CLIENT_KEY);
    }

    /** A file the pod sees under {@code /etc/delayq}, where this test keeps it. */
    private static Path podPath(String file) {
        assertThat(file).startsWith(POD_MOUNTS);
        return mounts.resolve(file.substring(POD_MOUNTS.length()));
    }

    private static final String POD_MOUNTS = "/etc/delayq/";

    /**
     * The pod's environment as the container sees it: values, Secret keys read from {@link #SECRETS}, and the
     * Kafka TLS files where {@link #mountTheKafkaTlsFiles} put them.
     */
    private static Map<String, String> podEnvironment(List<EnvVar> vars) {
        Map<String, String> env = new HashMap<>();
        for (EnvVar v : vars) {
            if (v.getValueFrom() != null) {
                SecretKeySelector ref = v.getValueFrom().getSecretKeyRef();
                String value = SECRETS.get(ref.getName() + "/" + ref.getKey());
                assertThat(value).as("%s references %s/%s, which the test's Secrets hold", v.getName(), ref.getName(), ref.getKey()).isNotNull();
                env.put(v.getName(), value);
            } else if (v.getValue().startsWith(KafkaTls.CA_DIRECTORY) || v.getValue().startsWith(KafkaTls.CLIENT_DIRECTORY)) {
                env.put(v.getName(), podPath(v.getValue()).toString());
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
        io.delayq.operator.resource.ResultsSpec results = new io.delayq.operator.resource.ResultsSpec();
        results.setKeep("6h");
        results.setMaxPerShard(2500);
        spec.setResults(results);
        RateLimitSpec rate = new RateLimitSpec();
        rate.setPerSecond(120.5);
        rate.setBurst(300);
        rate.setPerGroupPerSecond(7.5);
        rate.setPerGroupBurst(20);
        spec.setRateLimit(rate);
        GroupsSpec groups = new GroupsSpec();
        GroupWeightSpec paying = new GroupWeightSpec();
        paying.setGroup("tenant-paying");
        paying.setWeight(3);
        GroupWeightSpec partner = new GroupWeightSpec();
        partner.setGroup("partner:eu/7");
        partner.setWeight(2);
        groups.setWeights(List.of(paying, partner));
        groups.setMaxRunning(4);
        GroupCapSpec payouts = new GroupCapSpec();
        payouts.setGroup("payouts:acct-7");
        payouts.setMaxRunning(1);
        groups.setMaxRunningOverrides(List.of(payouts));
        spec.setGroups(groups);
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
        assertThat(c.results()).isEqualTo(new io.delayq.completion.ResultRetention(Duration.ofHours(6), 2500));
        assertThat(c.rateLimit()).isEqualTo(new RateLimit(120.5, 300, 7.5, 20));
        assertThat(c.groupWeights().weights()).containsExactly(Map.entry("tenant-paying", 3), Map.entry("partner:eu/7", 2));
        assertThat(c.groupCaps()).isEqualTo(new GroupCaps(4, Map.of("payouts:acct-7", 1)));
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
    void kafkaDeliveryReachesTheKafkaModule() throws IOException {
        WorkerConfig c = roundTrip(everyFieldSet(Deliveries.kafkaWithEverything()));

        assertThat(c.delivery()).isEqualTo(DeliveryKind.PROVIDED);
        assertThat(c.provided()).isInstanceOfSatisfying(KafkaTarget.class, kafka -> {
            assertThat(kafka.bootstrapServers()).isEqualTo("kafka-0.kafka:9092,kafka-1.kafka:9092");
            assertThat(kafka.topic()).isEqualTo("orders.due");
            assertThat(kafka.timeout()).isEqualTo(Duration.ofSeconds(3));
            assertThat(kafka.clientId()).isEqualTo("payouts-producer");
            assertThat(kafka.compression()).isEqualTo("zstd");
            assertThat(kafka.access().protocol()).isEqualTo("sasl_ssl");
            assertThat(kafka.access().mechanism()).isEqualTo("SCRAM-SHA-512");
            assertThat(kafka.access().username()).isEqualTo("delayq-producer");
            assertThat(kafka.access().password()).isEqualTo("k\"af\\ka");
            assertThat(kafka.access().tlsCa()).isEqualTo(FixtureCa.pem());
            assertThat(kafka.access().tlsCert()).isEqualTo(FixtureCa.pem());
            assertThat(kafka.access().tlsKey()).isEqualTo(CLIENT_KEY);
        });
        // with the spec's concurrency: 64; left out, the Kafka module's default
        assertThat(c.concurrency()).isEqualTo(64);
    }

    @Test
    void kafkaLeftAtItsDefaultsIsTheWorkersKafkaDefaults() {
        DelayQueue dq = DelayQueues.of("payouts", 12, 4, "redis://redis.shop.svc:6379/0");
        dq.getSpec().setDelivery(Deliveries.kafka());
        WorkerConfig c = roundTrip(dq);

        assertThat(namesWritten(dq)).doesNotContain(WorkerSettings.CONCURRENCY.name());
        assertThat(c.concurrency()).isEqualTo(WorkerSettings.DEFAULT_KAFKA_CONCURRENCY);
        KafkaTarget written = (KafkaTarget) c.provided();
        KafkaTarget alone = (KafkaTarget) WorkerConfig.fromEnv(Map.of(WorkerSettings.REDIS_URL.name(), "redis://redis.shop.svc:6379/0",
                WorkerSettings.QUEUE.name(), "payouts", WorkerSettings.SHARDS.name(), "12", WorkerSettings.DELIVERY.name(), "kafka",
                WorkerSettings.KAFKA_BOOTSTRAP_SERVERS.name(), "kafka-0.kafka:9092,kafka-1.kafka:9092",
                WorkerSettings.KAFKA_TOPIC.name(), "orders.due")).provided();
        assertThat(written).isEqualTo(alone);
    }

    @Test
    void theOutboxReachesTheWorkersRelay() {
        DelayQueue dq = everyFieldSet(stream());
        dq.getSpec().setOutbox(Deliveries.outboxWithEverything());
        Map<String, String> env = podEnvironment(WorkerEnvironment.of(dq, RANGE));
        WorkerConfig worker = WorkerConfig.fromEnv(env);

        RelayConfig relay = OutboxSettings.fromEnv(env, worker.redisUrl(), worker.queue(), worker.shards()).orElseThrow();
        assertThat(relay.jdbcUrl()).isEqualTo("jdbc:postgresql://db.shop.svc:5432/shop");
        assertThat(relay.jdbcProperties()).containsEntry("user", "relay").containsEntry("password", "pg-s3cret");
        assertThat(relay.redisUrl()).as("the worker's Redis, with its credentials").isEqualTo(worker.redisUrl());
        assertThat(relay.batchSize()).isEqualTo(200);
        assertThat(relay.pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(relay.retryDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(relay.newQueueShards()).containsExactly(Map.entry("payouts-eu", 12));
        BackstopQuery backstop = OutboxSettings.backstop(env, worker.queue()).orElseThrow();
        assertThat(backstop.queue()).isEqualTo("payouts-eu");
        assertThat(backstop.sql()).isEqualTo(Deliveries.outboxWithEverything().getBackstop().getQuery());
        assertThat(backstop.interval()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void theRelayDeploymentGetsTheRelaySettingsTheWorkersWouldHaveHadAndTheWorkersNone() {
        DelayQueue inWorkers = everyFieldSet(stream());
        inWorkers.getSpec().setOutbox(Deliveries.outboxWithEverything());
        Map<String, String> workerEnv = podEnvironment(WorkerEnvironment.of(inWorkers, RANGE));
        WorkerConfig worker = WorkerConfig.fromEnv(workerEnv);
        RelayConfig relayInWorkers = OutboxSettings.fromEnv(workerEnv, worker.redisUrl(), worker.queue(), worker.shards()).orElseThrow();

        DelayQueue ownDeployment = everyFieldSet(stream());
        ownDeployment.getSpec().setOutbox(Deliveries.outboxInItsOwnDeployment());
        Map<String, String> relayEnv = podEnvironment(OutboxRelayEnvironment.of(ownDeployment));
        String redisUrl = WorkerConfig.redisUrl(io.delayq.settings.Settings.from(relayEnv));
        RelayConfig relayAlone = OutboxSettings.fromEnv(relayEnv, redisUrl, relayEnv.get(WorkerSettings.QUEUE.name()),
                Integer.parseInt(relayEnv.get(WorkerSettings.SHARDS.name()))).orElseThrow();
        assertThat(relayAlone).as("the same relay, wherever it runs").isEqualTo(relayInWorkers);
        assertThat(relayAlone.redisTlsCa()).as("the mounted CA of spec.redis.tlsCaSecret").hasToString(RedisTlsCa.FILE);
        assertThat(OutboxSettings.backstop(relayEnv, "payouts-eu")).isEqualTo(OutboxSettings.backstop(workerEnv, "payouts-eu"));
        assertThat(relayEnv).containsEntry(WorkerSettings.HTTP_PORT.name(), String.valueOf(WorkerEnvironment.HTTP_PORT))
                .doesNotContainKeys(WorkerSettings.DELIVERY.name(), WorkerSettings.STREAM_KEY.name());

        Map<String, String> plainWorkers = podEnvironment(WorkerEnvironment.of(ownDeployment, RANGE));
        assertThat(plainWorkers.keySet()).as("workers without outbox settings")
                .doesNotContainAnyElementsOf(WorkerSettings.OUTBOX.stream().map(io.delayq.settings.Setting::name).toList());
        assertThat(OutboxSettings.fromEnv(plainWorkers, worker.redisUrl(), worker.queue(), worker.shards())).isEmpty();
    }

    @Test
    void theOutboxDefaultsAreTheRelaysDefaults() {
        DelayQueue dq = DelayQueues.of("orders", 8, null, "redis://redis.shop.svc:6379/0");
        dq.getSpec().setDelivery(stream());
        dq.getSpec().setOutbox(Deliveries.outbox());
        Map<String, String> env = podEnvironment(WorkerEnvironment.of(dq, RANGE));

        RelayConfig written = OutboxSettings.fromEnv(env, "redis://redis.shop.svc:6379/0", "orders", 8).orElseThrow();
        RelayConfig alone = OutboxSettings.fromEnv(Map.of(WorkerSettings.OUTBOX_URL.name(), "jdbc:postgresql://db.shop.svc:5432/shop"),
                "redis://redis.shop.svc:6379/0", "orders", 8).orElseThrow();
        assertThat(written).isEqualTo(alone);
        assertThat(OutboxSettings.backstop(env, "orders")).isEmpty();
        assertThat(OutboxSettings.fromEnv(podEnvironment(WorkerEnvironment.of(DelayQueues.orders(), RANGE)), "redis://r:6379", "orders", 8))
                .as("no spec.outbox, no relay").isEmpty();
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
        for (DeliverySpec delivery : List.of(handler(), webhook(), stream(), Deliveries.kafkaWithEverything())) {
            DelayQueue dq = everyFieldSet(delivery);
            dq.getSpec().setOutbox(Deliveries.outboxWithEverything());
            written.addAll(namesWritten(dq));
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
