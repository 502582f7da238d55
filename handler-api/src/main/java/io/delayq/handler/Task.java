package io.delayq.handler;

/**
 * A due task as a handler sees it. {@code id} is the idempotency key: a task can be delivered
 * again after its lease expired (worker died, handler too slow), then with {@code attempt} > 1.
 * {@code progress} is where a long handler reports how far it has got ({@link Progress}); {@code result}
 * is where it leaves a short result of the task ({@link TaskResult}).
 */
public record Task(String queue, int shard, String id, int attempt, long dueAt, String payload, Long enqueuedAt, int priority,
                   Progress progress, TaskResult result) {

    public Task {
        if (progress == null) {
            progress = Progress.DISCARDED;
        }
        if (result == null) {
            result = TaskResult.DISCARDED;
        }
    }

    /** A task whose result is forgotten (the form before {@code result} existed). */
    public Task(String queue, int shard, String id, int attempt, long dueAt, String payload, Long enqueuedAt, int priority,
                Progress progress) {
        this(queue, shard, id, attempt, dueAt, payload, enqueuedAt, priority, progress, TaskResult.DISCARDED);
    }

    /** A task whose progress reports are checked and forgotten (the form before {@code progress} existed). */
    public Task(String queue, int shard, String id, int attempt, long dueAt, String payload, Long enqueuedAt, int priority) {
        this(queue, shard, id, attempt, dueAt, payload, enqueuedAt, priority, Progress.DISCARDED, TaskResult.DISCARDED);
    }

    /** This task with its reports going to {@code progress}. */
    public Task withProgress(Progress progress) {
        return new Task(queue, shard, id, attempt, dueAt, payload, enqueuedAt, priority, progress, result);
    }

    /** This task with its result going to {@code result}. */
    public Task withResult(TaskResult result) {
        return new Task(queue, shard, id, attempt, dueAt, payload, enqueuedAt, priority, progress, result);
    }
}
