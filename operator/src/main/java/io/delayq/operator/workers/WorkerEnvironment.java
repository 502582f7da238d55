package io.delayq.operator.workers;

import io.delayq.operator.resource.BasicAuthSecretRef;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DeadLetterSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.GroupsSpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.KafkaSpec;
import io.delayq.operator.resource.OutboxRelaySpec;
import io.delayq.operator.resource.OutboxSpec;
import io.delayq.operator.resource.RateLimitSpec;
import io.delayq.operator.resource.ResultsSpec;
import io.delayq.operator.resource.RetrySpec;
import io.delayq.operator.resource.SchedulePlannerSpec;
import io.delayq.settings.Setting;
import io.delayq.settings.WorkerSettings;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import static io.delayq.settings.WorkerSettings.*;

/**
 * The worker's configuration as environment variables, named by the worker contract
 * ({@link WorkerSettings}); {@code WorkerContractRoundTripTest} feeds the result to the worker. Secret
 * values are referenced with {@code secretKeyRef} and never read or copied here: the pod spec,
 * and so the Deployment, the config hash and every log line, holds only Secret names and keys.
 */
public final class WorkerEnvironment {
    public static final int HTTP_PORT = WorkerSettings.DEFAULT_HTTP_PORT;
    public static final String RESERVED_PREFIX = WorkerSettings.PREFIX;

    private WorkerEnvironment() {
    }

    public static List<EnvVar> of(DelayQueue dq, ShardRange range) {
        return of(dq, range, dq.getSpec().getShards());
    }

    /** @param shards the count the workers are told: the spec's, or the old layout's while the queue grows */
    public static List<EnvVar> of(DelayQueue dq, ShardRange range, int shards) {
        DelayQueueSpec spec = dq.getSpec();
        List<EnvVar> env = new ArrayList<>();
        redisEnv(env, dq);
        add(env, QUEUE, dq.queueName());
        add(env, SHARDS, shards);
        add(env, SHARD_FROM, range.from());
        add(env, SHARD_TO, range.to());
        add(env, BATCH_SIZE, spec.getBatchSize());
        add(env, POLL_INTERVAL, spec.getPollInterval());
        add(env, LEASE, spec.getLease());
        add(env, CLAIM_AHEAD, spec.getClaimAhead());
        if (spec.getConcurrency() != null) {
            add(env, CONCURRENCY, spec.getConcurrency());
        }
        add(env, HANDLER_TIMEOUT, spec.getHandlerTimeout());

        RetrySpec retry = Objects.requireNonNullElseGet(spec.getRetry(), RetrySpec::new);
        add(env, RETRY_MAX_ATTEMPTS, retry.getMaxAttempts());
        add(env, RETRY_BACKOFF_INITIAL, retry.getInitialBackoff());
        add(env, RETRY_BACKOFF_MAX, retry.getMaxBackoff());
        add(env, RETRY_BACKOFF_MULTIPLIER, retry.getMultiplier());
        add(env, RETRY_JITTER, retry.getJitter());

        DeadLetterSpec dead = Objects.requireNonNullElseGet(spec.getDeadLetter(), DeadLetterSpec::new);
        add(env, DEAD_LETTER_MAX_COUNT, dead.getMaxCount());
        add(env, DEAD_LETTER_MAX_AGE, dead.getMaxAge());

        ResultsSpec results = spec.getResults();
        if (results != null) {
            add(env, RESULTS_KEEP, results.getKeep());
            add(env, RESULTS_MAX_PER_SHARD, results.getMaxPerShard());
        }

        RateLimitSpec rate = spec.getRateLimit();
        if (rate != null && rate.getPerSecond() != null) {
            add(env, RATE_LIMIT, rate.getPerSecond());
            if (rate.getBurst() != null) {
                add(env, RATE_BURST, rate.getBurst());
            }
        }
        if (rate != null && rate.getPerGroupPerSecond() != null) {
            add(env, GROUP_RATE_LIMIT, rate.getPerGroupPerSecond());
            if (rate.getPerGroupBurst() != null) {
                add(env, GROUP_RATE_BURST, rate.getPerGroupBurst());
            }
        }

        if (spec.getGroups() != null) {
            groupsEnv(env, spec.getGroups());
        }

        deliveryEnv(env, Objects.requireNonNullElseGet(spec.getDelivery(), DeliverySpec::new));
        add(env, WorkerSettings.HTTP_PORT, HTTP_PORT);
        add(env, SHUTDOWN_GRACE, spec.getShutdownGrace());
        SchedulePlannerSpec planner = spec.getSchedulePlanner();
        if (planner != null) {
            add(env, SCHEDULE_INTERVAL, planner.getInterval());
            add(env, SCHEDULE_HORIZON, planner.getHorizon());
            add(env, SCHEDULE_MISFIRE_THRESHOLD, planner.getMisfireThreshold());
        }
        if (spec.getOutbox() != null && !OutboxRelaySpec.ownDeployment(spec.getOutbox())) {
            outboxEnv(env, spec.getOutbox());
        }

        // The user's own variables come last; DELAYQ_* ones are refused by the CRD, and dropped
        // here too so that a resource written past validation cannot override the contract.
        if (spec.getWorker() != null && spec.getWorker().getEnv() != null) {
            spec.getWorker().getEnv().stream()
                    .filter(e -> e.getName() != null && !e.getName().startsWith(RESERVED_PREFIX))
                    .forEach(env::add);
        }
        return env;
    }

    /** Weights and caps of groups, each only when given (a group not named weighs 1 and has no cap of its own). */
    private static void groupsEnv(List<EnvVar> env, GroupsSpec groups) {
        if (groups.getWeights() != null && !groups.getWeights().isEmpty()) {
            add(env, GROUP_WEIGHTS, groups.getWeights().stream().map(w -> w.getGroup() + "=" + w.getWeight())
                    .collect(Collectors.joining(",")));
        }
        add(env, GROUP_MAX_RUNNING, groups.getMaxRunning());
        if (groups.getMaxRunningOverrides() != null && !groups.getMaxRunningOverrides().isEmpty()) {
            add(env, GROUP_MAX_RUNNING_OVERRIDES, groups.getMaxRunningOverrides().stream().map(c -> c.getGroup() + "=" + c.getMaxRunning())
                    .collect(Collectors.joining(",")));
        }
    }

    private static void deliveryEnv(List<EnvVar> env, DeliverySpec delivery) {
        DeliveryType type = Objects.requireNonNullElse(delivery.getType(), DeliveryType.Handler);
        add(env, DELIVERY, type.workerValue());
        switch (type) {
            case Handler -> {
                if (delivery.getHandler() != null) {
                    add(env, HANDLER, delivery.getHandler().getClassName());
                    add(env, HANDLER_PATH, delivery.getHandler().getPath());
                }
            }
            case Webhook -> {
                if (delivery.getWebhook() != null) {
                    add(env, WEBHOOK_URL, delivery.getWebhook().getUrl());
                    add(env, WEBHOOK_TIMEOUT, delivery.getWebhook().getTimeout());
                    if (delivery.getWebhook().getSigningSecret() != null) {
                        env.add(fromSecret(WEBHOOK_SECRET, delivery.getWebhook().getSigningSecret().getName(),
                                delivery.getWebhook().getSigningSecret().getKey()));
                    }
                }
            }
            case Stream -> {
                if (delivery.getStream() != null) {
                    add(env, STREAM_KEY, delivery.getStream().getKey());
                    if (delivery.getStream().getMaxLength() != null) {
                        add(env, STREAM_MAXLEN, delivery.getStream().getMaxLength());
                    }
                }
            }
            case Kafka -> {
                if (delivery.getKafka() != null) {
                    kafkaEnv(env, delivery.getKafka());
                }
            }
        }
    }

    /** Unset optional fields write nothing: the worker's defaults (compression none, PLAINTEXT, PLAIN, client id delayq-QUEUE) apply. */
    private static void kafkaEnv(List<EnvVar> env, KafkaSpec kafka) {
        add(env, KAFKA_BOOTSTRAP_SERVERS, kafka.getBootstrapServers());
        add(env, KAFKA_TOPIC, kafka.getTopic());
        add(env, KAFKA_TIMEOUT, kafka.getTimeout());
        add(env, KAFKA_CLIENT_ID, kafka.getClientId());
        if (kafka.getCompression() != null) {
            add(env, KAFKA_COMPRESSION, kafka.getCompression().workerValue());
        }
        if (kafka.getSecurityProtocol() != null) {
            add(env, KAFKA_SECURITY_PROTOCOL, kafka.getSecurityProtocol().workerValue());
        }
        if (kafka.getSaslMechanism() != null) {
            add(env, KAFKA_SASL_MECHANISM, kafka.getSaslMechanism().workerValue());
        }
        BasicAuthSecretRef credentials = kafka.getCredentialsSecret();
        if (credentials != null) {
            env.add(fromSecret(KAFKA_USERNAME, credentials.getName(), usernameKey(credentials)));
            env.add(fromSecret(KAFKA_PASSWORD, credentials.getName(), passwordKey(credentials)));
        }
        if (kafka.getTlsCaSecret() != null) {
            add(env, KAFKA_TLS_CA, KafkaTls.CA_FILE);
        }
        if (kafka.getTlsClientSecret() != null) {
            add(env, KAFKA_TLS_CERT, KafkaTls.CERT_FILE);
            add(env, KAFKA_TLS_KEY, KafkaTls.KEY_FILE);
        }
    }

    /** The Redis of the queue: its URL, the credentials by secretKeyRef, the mounted CA file. */
    static void redisEnv(List<EnvVar> env, DelayQueue dq) {
        add(env, REDIS_URL, dq.getSpec().getRedis().getUrl());
        CredentialsSecretRef credentials = dq.getSpec().getRedis().getCredentialsSecret();
        if (credentials != null) {
            if (credentials.getUsernameKey() != null) {
                env.add(fromSecret(REDIS_USERNAME, credentials.getName(), credentials.getUsernameKey()));
            }
            env.add(fromSecret(REDIS_PASSWORD, credentials.getName(),
                    Objects.requireNonNullElse(credentials.getPasswordKey(), "password")));
        }
        if (RedisTlsCa.of(dq).isPresent()) {
            add(env, REDIS_TLS_CA, RedisTlsCa.FILE);
        }
    }

    /**
     * The relay's settings, in every worker replica (mode Workers) or in the relay's own pods: relays share the table
     * through SKIP LOCKED (docs/outbox.md).
     */
    static void outboxEnv(List<EnvVar> env, OutboxSpec outbox) {
        add(env, OUTBOX_URL, outbox.getJdbcUrl());
        BasicAuthSecretRef credentials = outbox.getCredentialsSecret();
        if (credentials != null) {
            env.add(fromSecret(OUTBOX_USER, credentials.getName(), usernameKey(credentials)));
            env.add(fromSecret(OUTBOX_PASSWORD, credentials.getName(), passwordKey(credentials)));
        }
        add(env, OUTBOX_BATCH_SIZE, outbox.getBatchSize());
        add(env, OUTBOX_POLL_INTERVAL, outbox.getPollInterval());
        add(env, OUTBOX_RETRY_DELAY, outbox.getRetryDelay());
        if (outbox.getBackstop() != null) {
            add(env, OUTBOX_BACKSTOP_QUERY, outbox.getBackstop().getQuery());
            add(env, OUTBOX_BACKSTOP_INTERVAL, outbox.getBackstop().getInterval());
        }
    }

    static String usernameKey(BasicAuthSecretRef ref) {
        return Objects.requireNonNullElse(ref.getUsernameKey(), BasicAuthSecretRef.DEFAULT_USERNAME_KEY);
    }

    static String passwordKey(BasicAuthSecretRef ref) {
        return Objects.requireNonNullElse(ref.getPasswordKey(), BasicAuthSecretRef.DEFAULT_PASSWORD_KEY);
    }

    static void add(List<EnvVar> env, Setting setting, Object value) {
        if (value != null) {
            env.add(new EnvVarBuilder().withName(setting.name()).withValue(String.valueOf(value)).build());
        }
    }

    private static EnvVar fromSecret(Setting setting, String secret, String key) {
        return new EnvVarBuilder().withName(setting.name())
                .withNewValueFrom().withNewSecretKeyRef().withName(secret).withKey(key).withOptional(false).endSecretKeyRef().endValueFrom()
                .build();
    }
}
