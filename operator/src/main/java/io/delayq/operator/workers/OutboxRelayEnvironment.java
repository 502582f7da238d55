package io.delayq.operator.workers;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.settings.WorkerSettings;
import io.fabric8.kubernetes.api.model.EnvVar;

import java.util.ArrayList;
import java.util.List;

import static io.delayq.settings.WorkerSettings.QUEUE;
import static io.delayq.settings.WorkerSettings.SHARDS;

/**
 * The variables of {@code delayq outbox-relay} in the relay's own Deployment: the worker's Redis settings (URL,
 * credentials by secretKeyRef, the CA file), the queue and its shard count, the probes' port and the
 * {@code DELAYQ_OUTBOX_*} group, all named by the worker contract ({@link WorkerSettings}). No delivery settings:
 * the relay fires nothing. Secret values are referenced, never read.
 */
public final class OutboxRelayEnvironment {

    private OutboxRelayEnvironment() {
    }

    /** @throws IllegalArgumentException when the DelayQueue has no {@code spec.outbox} */
    public static List<EnvVar> of(DelayQueue dq) {
        if (dq.getSpec().getOutbox() == null) {
            throw new IllegalArgumentException("spec.outbox is required for an outbox relay");
        }
        List<EnvVar> env = new ArrayList<>();
        WorkerEnvironment.redisEnv(env, dq);
        WorkerEnvironment.add(env, QUEUE, dq.queueName());
        WorkerEnvironment.add(env, SHARDS, dq.getSpec().getShards());
        WorkerEnvironment.add(env, WorkerSettings.HTTP_PORT, WorkerEnvironment.HTTP_PORT);
        WorkerEnvironment.outboxEnv(env, dq.getSpec().getOutbox());
        // the user's own variables (JVM options, proxies) as in the worker pods; DELAYQ_* ones never override the contract
        if (dq.getSpec().getWorker() != null && dq.getSpec().getWorker().getEnv() != null) {
            dq.getSpec().getWorker().getEnv().stream()
                    .filter(e -> e.getName() != null && !e.getName().startsWith(WorkerEnvironment.RESERVED_PREFIX))
                    .forEach(env::add);
        }
        return env;
    }
}
