package io.delayq.chaos.report;

import io.delayq.chaos.load.Producer;
import io.delayq.chaos.recorder.Execution;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Compares what the producer had acknowledged with what the handlers recorded. */
public final class RunAnalysis {
    private RunAnalysis() {
    }

    /** The due time in force for a task at an instant (epoch ms); {@code Long.MIN_VALUE} when it is not known then. */
    @FunctionalInterface
    public interface DueRule {
        long dueAt(String id, long atMillis);
    }

    /**
     * @param lossEventMillis when Redis lost state (a kill), or -1: the loss window is how long before
     *                        it the earliest lost task had been acknowledged
     */
    public static Figures analyse(Map<String, Producer.Acked> acked, List<Execution> executions, long leaseMillis, long lossEventMillis) {
        return analyse(acked, executions, leaseMillis, lossEventMillis, (id, at) -> {
            Producer.Acked a = acked.get(id);
            return a == null ? Long.MIN_VALUE : a.dueAt();
        });
    }

    /**
     * As above, with the due time in force at each execution's start given by {@code due} (tasks whose due time a
     * reschedule moved); an execution is early when it started before that or before the due time it was claimed with.
     */
    public static Figures analyse(Map<String, Producer.Acked> acked, List<Execution> executions, long leaseMillis, long lossEventMillis,
                                  DueRule due) {
        Map<String, List<Execution>> byId = new HashMap<>();
        for (Execution e : executions) {
            byId.computeIfAbsent(e.id(), k -> new ArrayList<>()).add(e);
        }
        List<String> lost = new ArrayList<>();
        long lossWindow = 0;
        List<Long> lags = new ArrayList<>();
        int late = 0;
        for (Map.Entry<String, Producer.Acked> a : acked.entrySet()) {
            List<Execution> runs = byId.get(a.getKey());
            if (runs == null) {
                lost.add(a.getKey());
                if (lossEventMillis > 0 && a.getValue().ackedAt() <= lossEventMillis) {
                    lossWindow = Math.max(lossWindow, lossEventMillis - a.getValue().ackedAt());
                }
                continue;
            }
            // a task cannot be expected before it was acknowledged (a retried call lands late)
            long expected = Math.max(a.getValue().dueAt(), a.getValue().ackedAt());
            long first = runs.stream().mapToLong(Execution::startMillis).min().orElseThrow();
            long lag = Math.max(0, first - expected);
            lags.add(lag);
            if (lag > leaseMillis) {
                late++;
            }
        }
        int duplicatedIds = 0;
        int duplicateExecutions = 0;
        int repeated = 0;
        int readded = 0;
        int overlapping = 0;
        int concurrentWithoutExpiry = 0;
        int unexpected = 0;
        int early = 0;
        for (Execution x : executions) {
            if (x.startMillis() < x.dueAt() || x.startMillis() < due.dueAt(x.id(), x.startMillis())) {
                early++;
            }
        }
        for (Map.Entry<String, List<Execution>> e : byId.entrySet()) {
            List<Execution> runs = e.getValue();
            Producer.Acked a = acked.get(e.getKey());
            if (a == null) {
                unexpected++;
            }
            if (runs.size() < 2) {
                continue;
            }
            duplicatedIds++;
            duplicateExecutions += runs.size() - 1;
            Set<Integer> attempts = new HashSet<>();
            for (Execution r : runs) {
                if (!attempts.add(r.attempt())) {
                    if (a != null && a.readded() && r.attempt() == 1) {
                        readded++;
                    } else {
                        repeated++;
                    }
                }
            }
            runs.sort(Comparator.comparingLong(Execution::startMillis));
            for (int i = 0; i < runs.size(); i++) {
                for (int j = i + 1; j < runs.size(); j++) {
                    Execution earlier = runs.get(i);
                    Execution later = runs.get(j);
                    if (!earlier.overlaps(later)) {
                        continue;
                    }
                    overlapping++;
                    // a re-delivery needs the earlier claim's lease to have expired: a higher attempt,
                    // and no sooner than due + lease (the claim came at or after the due time)
                    if (later.attempt() <= earlier.attempt() || later.startMillis() < earlier.dueAt() + leaseMillis) {
                        concurrentWithoutExpiry++;
                    }
                }
            }
        }
        lags.sort(Long::compare);
        lost.sort(String::compareTo);
        return new Figures(acked.size(), executions.size(), lost.size(), List.copyOf(lost.subList(0, Math.min(10, lost.size()))), lossWindow,
                duplicatedIds, duplicateExecutions, repeated, readded, overlapping, concurrentWithoutExpiry, late,
                percentile(lags, 0.50), percentile(lags, 0.99), lags.isEmpty() ? 0 : lags.get(lags.size() - 1), unexpected, early);
    }

    private static long percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size())));
    }
}
