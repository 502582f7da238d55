package io.delayq.operator.workers;

import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DeadLetterSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.DeliverySpec;
import io.delayq.operator.resource.DeliveryType;
import io.delayq.operator.resource.RateLimitSpec;
import io.delayq.operator.resource.RetrySpec;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The worker's configuration as environment variables, following the worker contract. Secret
 * values are referenced with {@code secretKeyRef} and never read or copied here: the pod spec,
 * and so the Deployment, the config hash and every log line, holds only Secret names and keys.
 */
public final class WorkerEnvironment {
    public static final int HTTP_PORT = 8080;
    public static final String RESERVED_PREFIX = "DELAYQ_";

    private WorkerEnvironment() {
    }

    public static List<EnvVar> of(DelayQueue dq, ShardRange range) {
        DelayQueueSpec spec = dq.getSpec();
        List<EnvVar> env = new ArrayList<>();
        add(env, "DELAYQ_REDIS_URL", spec.getRedis().getUrl());
        CredentialsSecretRef credentials = spec.getRedis().getCredentialsSecret();
        if (credentials != null) {
            if (credentials.getUsernameKey() != null) {
                env.add(fromSecret("DELAYQ_REDIS_USERNAME", credentials.getName(), credentials.getUsernameKey()));
            }
            env.add(fromSecret("DELAYQ_REDIS_PASSWORD", credentials.getName(),
                    Objects.requireNonNullElse(credentials.getPasswordKey(), "password")));
        }
        if (RedisTlsCa.of(dq).isPresent()) {
            add(env, "DELAYQ_REDIS_TLS_CA", RedisTlsCa.FILE);
        }
        add(env, "DELAYQ_QUEUE", dq.queueName());
        add(env, "DELAYQ_SHARDS", spec.getShards());
        add(env, "DELAYQ_SHARD_FROM", range.from());
        add(env, "DELAYQ_SHARD_TO", range.to());
        add(env, "DELAYQ_BATCH_SIZE", spec.getBatchSize());
        add(env, "DELAYQ_POLL_INTERVAL", spec.getPollInterval());
        add(env, "DELAYQ_LEASE", spec.getLease());
        add(env, "DELAYQ_CONCURRENCY", spec.getConcurrency());
        add(env, "DELAYQ_HANDLER_TIMEOUT", spec.getHandlerTimeout());

        RetrySpec retry = Objects.requireNonNullElseGet(spec.getRetry(), RetrySpec::new);
        add(env, "DELAYQ_RETRY_MAX_ATTEMPTS", retry.getMaxAttempts());
        add(env, "DELAYQ_RETRY_BACKOFF_INITIAL", retry.getInitialBackoff());
        add(env, "DELAYQ_RETRY_BACKOFF_MAX", retry.getMaxBackoff());
        add(env, "DELAYQ_RETRY_BACKOFF_MULTIPLIER", retry.getMultiplier());
        add(env, "DELAYQ_RETRY_JITTER", retry.getJitter());

        DeadLetterSpec dead = Objects.requireNonNullElseGet(spec.getDeadLetter(), DeadLetterSpec::new);
        add(env, "DELAYQ_DEAD_LETTER_MAX_COUNT", dead.getMaxCount());
        add(env, "DELAYQ_DEAD_LETTER_MAX_AGE", dead.getMaxAge());

        RateLimitSpec rate = spec.getRateLimit();
        if (rate != null && rate.getPerSecond() != null) {
            add(env, "DELAYQ_RATE_LIMIT", rate.getPerSecond());
            if (rate.getBurst() != null) {
                add(env, "DELAYQ_RATE_BURST", rate.getBurst());
            }
        }

        deliveryEnv(env, Objects.requireNonNullElseGet(spec.getDelivery(), DeliverySpec::new));
        add(env, "DELAYQ_HTTP_PORT", HTTP_PORT);
        add(env, "DELAYQ_SHUTDOWN_GRACE", spec.getShutdownGrace());

        // The user's own variables come last; DELAYQ_* ones are refused by the CRD, and dropped
        // here too so that a resource written past validation cannot override the contract.
        if (spec.getWorker() != null && spec.getWorker().getEnv() != null) {
            spec.getWorker().getEnv().stream()
                    .filter(e -> e.getName() != null && !e.getName().startsWith(RESERVED_PREFIX))
                    .forEach(env::add);
        }
        return env;
    }

    private static void deliveryEnv(List<EnvVar> env, DeliverySpec delivery) {
        DeliveryType type = Objects.requireNonNullElse(delivery.getType(), DeliveryType.Handler);
        add(env, "DELAYQ_DELIVERY", type.workerValue());
        switch (type) {
            case Handler -> {
                if (delivery.getHandler() != null && delivery.getHandler().getClassName() != null) {
                    add(env, "DELAYQ_HANDLER", delivery.getHandler().getClassName());
                }
            }
            case Webhook -> {
                if (delivery.getWebhook() != null) {
                    add(env, "DELAYQ_WEBHOOK_URL", delivery.getWebhook().getUrl());
                    add(env, "DELAYQ_WEBHOOK_TIMEOUT", delivery.getWebhook().getTimeout());
                    if (delivery.getWebhook().getSigningSecret() != null) {
                        env.add(fromSecret("DELAYQ_WEBHOOK_SECRET", delivery.getWebhook().getSigningSecret().getName(),
                                delivery.getWebhook().getSigningSecret().getKey()));
                    }
                }
            }
            case Stream -> {
                if (delivery.getStream() != null) {
                    add(env, "DELAYQ_STREAM_KEY", delivery.getStream().getKey());
                    if (delivery.getStream().getMaxLength() != null) {
                        add(env, "DELAYQ_STREAM_MAXLEN", delivery.getStream().getMaxLength());
                    }
                }
            }
        }
    }

    private static void add(List<EnvVar> env, String name, Object value) {
        if (value != null) {
            env.add(new EnvVarBuilder().withName(name).withValue(String.valueOf(value)).build());
        }
    }

    private static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name)
                .withNewValueFrom().withNewSecretKeyRef().withName(secret).withKey(key).withOptional(false).endSecretKeyRef().endValueFrom()
                .build();
    }
}
