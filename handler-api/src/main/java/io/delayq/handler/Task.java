package io.delayq.handler;

/**
 * A due task as a handler sees it. {@code id} is the idempotency key: a task can be delivered
 * again after its lease expired (worker died, handler too slow), then with {@code attempt} > 1.
 * {@code progress} is where a long handler reports how far it has got ({@link Progress}).
 */
public record Task(String queue, int shard, String id, int attempt, long dueAt, String payload, Long enqueuedAt, int priority,
                   Progress progress) {

    public Task {
        if (progress == null) {
            progress = Progress.DISCARDED;
        }
    }

    /** A task whose progress reports are checked and forgotten (the form before {@code progress} existed). */
    public Task(String queue, int shard, String id, int attempt, long dueAt, String payload, Long enqueuedAt, int priority) {
        this(queue, shard, id, attempt, dueAt, payload, enqueuedAt, priority, Progress.DISCARDED);
    }

    /** This task with its reports going to {@code progress}. */
    public Task withProgress(Progress progress) {
        return new Task(queue, shard, id, attempt, dueAt, payload, enqueuedAt, priority, progress);
    }
}
