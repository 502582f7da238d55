package io.delayq.handler;

/**
 * A due task as a handler sees it. {@code id} is the idempotency key: a task can be delivered
 * again after its lease expired (worker died, handler too slow), then with {@code attempt} > 1.
 */
public record Task(String queue, int shard, String id, int attempt, long dueAt, String payload, Long enqueuedAt, int priority) {
}
