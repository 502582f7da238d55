package io.delayq.outbox.relay;

import io.delayq.InvalidInputException;
import io.delayq.client.AsyncDelayQueueClient;
import io.delayq.outbox.row.OutboxRow;
import io.delayq.queue.QueueName;
import io.delayq.redis.Replies;
import io.delayq.task.CancelResult;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Applies a claimed batch with the producer client's own operations, all rows sent at once (one pipeline)
 * and then awaited in order. Each row ends applied (with Redis' answer), refused as bad input (to the
 * quarantine), or failed (it stays in the outbox for the next round).
 */
final class RowApplier {
    private final QueueClients clients;
    private final Duration timeout;

    RowApplier(QueueClients clients, Duration timeout) {
        this.clients = clients;
        this.timeout = timeout;
    }

    sealed interface Outcome permits Applied, Refused, Failed {
    }

    record Applied(OutboxRow row, String result) implements Outcome {
    }

    record Refused(OutboxRow row, String reason) implements Outcome {
    }

    record Failed(OutboxRow row, Throwable cause) implements Outcome {
    }

    List<Outcome> apply(List<OutboxRow> rows) {
        List<CompletionStage<String>> sent = new ArrayList<>(rows.size());
        for (OutboxRow row : rows) {
            sent.add(send(row));
        }
        List<Outcome> outcomes = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            OutboxRow row = rows.get(i);
            try {
                outcomes.add(new Applied(row, Replies.await(sent.get(i), timeout)));
            } catch (InvalidInputException e) {
                outcomes.add(new Refused(row, e.getMessage()));
            } catch (RuntimeException e) {
                outcomes.add(new Failed(row, e));
            }
        }
        return outcomes;
    }

    private CompletionStage<String> send(OutboxRow row) {
        try {
            return switch (row.operation()) {
                case ENQUEUE -> {
                    var task = row.task();
                    var policy = row.duplicatePolicy();
                    yield async(row).enqueue(task, policy).thenApply(RowApplier::name);
                }
                case CANCEL -> async(row).cancel(row.taskId()).thenApply(RowApplier::name);
                case RESCHEDULE -> async(row).reschedule(row.taskId(), row.schedule()).thenApply(RowApplier::name);
            };
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private AsyncDelayQueueClient async(OutboxRow row) {
        QueueName.require(row.queue());
        return clients.of(row.queue()).async();
    }

    private static String name(EnqueueResult r) {
        return r.status().name().toLowerCase(Locale.ROOT);
    }

    private static String name(CancelResult r) {
        return r.name().toLowerCase(Locale.ROOT);
    }

    private static String name(RescheduleResult r) {
        return r.status().name().toLowerCase(Locale.ROOT);
    }
}
