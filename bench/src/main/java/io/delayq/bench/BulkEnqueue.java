package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.redis.Replies;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * Writes a benchmark's backlog fast: enqueueAll in chunks with a few calls in flight, every task required to be
 * added (a backlog that silently lost some would make every figure after it wrong).
 */
final class BulkEnqueue {
    private BulkEnqueue() {
    }

    static void enqueue(DelayQueueClient client, int n, int chunk, int window, IntFunction<TaskSpec> task) {
        Deque<CompletableFuture<List<EnqueueResult>>> inFlight = new ArrayDeque<>();
        for (int from = 0; from < n; from += chunk) {
            List<TaskSpec> specs = new ArrayList<>(chunk);
            for (int i = from; i < Math.min(n, from + chunk); i++) {
                specs.add(task.apply(i));
            }
            inFlight.add(client.async().enqueueAll(specs, DuplicatePolicy.REJECT).toCompletableFuture());
            if (inFlight.size() >= window) {
                requireAdded(inFlight.poll());
            }
        }
        while (!inFlight.isEmpty()) {
            requireAdded(inFlight.poll());
        }
    }

    private static void requireAdded(CompletableFuture<List<EnqueueResult>> call) {
        for (EnqueueResult r : Replies.await(call, Duration.ofMinutes(2))) {
            if (r.status() != EnqueueResult.Status.ADDED) {
                throw new IllegalStateException("enqueue of " + r.id() + " answered " + r.status());
            }
        }
    }
}
