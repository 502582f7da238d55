package io.delayq.client;

import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.script.ScriptRunner;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Enqueue, then {@code WAIT replicas timeout} on the same connection to the shard's primary: Redis
 * answers how many replicas hold every write this connection made so far, this enqueue included.
 * Replication stays asynchronous (WAIT does not make Redis strongly consistent), but a write a
 * replica confirmed survives the failover to that replica. WAIT follows the script's answer rather
 * than being pipelined with it, so that a script re-sent with EVAL after NOSCRIPT is covered too.
 */
final class ReplicaAcks {
    private final RedisEndpoint redis;
    private final QueueProtocol protocol;
    private final int replicas;
    private final Duration timeout;

    ReplicaAcks(RedisEndpoint redis, QueueProtocol protocol, int replicas, Duration timeout) {
        this.redis = redis;
        this.protocol = protocol;
        this.replicas = replicas;
        this.timeout = timeout;
    }

    CompletionStage<List<QueueProtocol.Placed>> enqueue(int shard, List<TaskSpec> tasks, DuplicatePolicy policy, long enqueuedAt,
                                                        long epoch, boolean presentOnly) {
        return redis.commandsOnPrimaryOf(protocol.keys(shard).due(0)).thenCompose(node ->
                protocol.enqueueAt(shard, tasks, policy, enqueuedAt, epoch, presentOnly, new ScriptRunner(node)).thenCompose(placed ->
                        node.waitForReplication(replicas, timeout.toMillis()).thenApply(acknowledged -> {
                            if (acknowledged < replicas) {
                                List<EnqueueResult> results = placed.stream()
                                        .filter(p -> !p.status().equals("absent") && !p.status().equals("moving"))
                                        .map(QueueProtocol.Placed::result).toList();
                                throw new ReplicaAckException(shard, results, replicas, acknowledged, timeout.toMillis());
                            }
                            return placed;
                        })));
    }
}
