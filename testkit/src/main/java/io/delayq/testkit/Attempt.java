package io.delayq.testkit;

import io.delayq.handler.Task;

/**
 * One call of the handler under test: the task as the handler saw it, what it threw ({@code null} when it
 * returned normally) and when it finished (epoch ms on this machine, which is also the local Redis's clock).
 */
public record Attempt(Task task, Throwable failure, long finishedAt) {
    public int number() {
        return task.attempt();
    }

    public boolean succeeded() {
        return failure == null;
    }
}
