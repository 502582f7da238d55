package io.delayq.outbox.relay;

import io.delayq.InvalidInputException;
import io.delayq.client.AsyncDelayQueueClient;
import io.delayq.outbox.row.Operation;
import io.delayq.outbox.row.OutboxRow;
import io.delayq.queue.QueueName;
import io.delayq.redis.Replies;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Applies a claimed batch with the producer client's own operations, all rows sent at once (one pipeline)
 * and then awaited in order. The enqueues of one queue and duplicate policy go as one {@code enqueueAll} (a script
 * call per shard instead of one per row; a batch holds at most one row per task, so nothing of one task is
 * reordered); a group the client refuses as bad input is sent again row by row, so that only the bad rows are
 * refused. Each row ends applied (with Redis' answer), refused as bad input (to the quarantine), or failed (it
 * stays in the outbox for the next round).
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
        Map<EnqueueGroup, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            OutboxRow row = rows.get(i);
            sent.add(null);
            EnqueueGroup group = enqueueGroup(row);
            if (group == null) {
                sent.set(i, send(row));
            } else {
                groups.computeIfAbsent(group, g -> new ArrayList<>()).add(i);
            }
        }
        Set<Integer> grouped = new HashSet<>();
        groups.forEach((group, members) -> {
            if (sendGroup(group, members, rows, sent)) {
                grouped.addAll(members);
            }
        });
        List<Outcome> outcomes = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            OutboxRow row = rows.get(i);
            Outcome outcome = outcome(row, sent.get(i));
            if (outcome instanceof Refused && grouped.contains(i)) {
                // refused for the whole group's call: asked again alone (the task id keeps a repeat harmless)
                outcome = outcome(row, send(row));
            }
            outcomes.add(outcome);
        }
        return outcomes;
    }

    private Outcome outcome(OutboxRow row, CompletionStage<String> answer) {
        try {
            return new Applied(row, Replies.await(answer, timeout));
        } catch (InvalidInputException e) {
            return new Refused(row, e.getMessage());
        } catch (RuntimeException e) {
            return new Failed(row, e);
        }
    }

    /** The enqueues that may share one call: same queue, same duplicate policy. */
    private record EnqueueGroup(String queue, DuplicatePolicy policy) {
    }

    /** The group of an enqueue row, or null for a row sent alone (cancel, reschedule, or one that does not parse). */
    private static EnqueueGroup enqueueGroup(OutboxRow row) {
        try {
            return row.operation() == Operation.ENQUEUE ? new EnqueueGroup(row.queue(), row.duplicatePolicy()) : null;
        } catch (RuntimeException e) {
            return null;   // sent alone, where the same parse fails again and refuses that row only
        }
    }

    /** Sends the group's rows as one enqueueAll (true), or each on its own when the client refused the group at once (false). */
    private boolean sendGroup(EnqueueGroup group, List<Integer> members, List<OutboxRow> rows, List<CompletionStage<String>> sent) {
        List<TaskSpec> tasks = new ArrayList<>(members.size());
        CompletionStage<List<EnqueueResult>> all;
        try {
            for (int i : members) {
                tasks.add(rows.get(i).task());
            }
            all = async(group.queue()).enqueueAll(tasks, group.policy());
        } catch (InvalidInputException e) {
            // one bad row in the group (payload, expiry, id, queue name): each row on its own, so only the bad ones are refused
            for (int i : members) {
                sent.set(i, send(rows.get(i)));
            }
            return false;
        } catch (RuntimeException e) {
            for (int i : members) {
                sent.set(i, CompletableFuture.failedFuture(e));
            }
            return false;
        }
        for (int k = 0; k < members.size(); k++) {
            int index = k;
            sent.set(members.get(k), all.thenApply(results -> name(results.get(index))));
        }
        return true;
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
        return async(row.queue());
    }

    private AsyncDelayQueueClient async(String queue) {
        QueueName.require(queue);
        return clients.of(queue).async();
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
