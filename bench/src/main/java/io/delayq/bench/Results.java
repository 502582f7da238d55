package io.delayq.bench;

import java.util.Arrays;

/** The figures one system produced in one run. */
final class Results {
    private Results() {
    }

    /** W1: a backlog of already-due tasks: how fast it goes in (enqueue) and out (drain). */
    record W1(int tasks, double enqueueSeconds, double drainSeconds, int handled, int duplicates, RedisUsage enqueue, RedisUsage drain,
              double clientCpuMillis, String note) {
        /** CPU the system's own processes (this JVM, or node) spent during the drain, per 1,000 tasks. */
        double clientCpuMillisPer1000() {
            return clientCpuMillis * 1000.0 / tasks;
        }

        double enqueuePerSecond() {
            return tasks / enqueueSeconds;
        }

        double drainPerSecond() {
            return handled / drainSeconds;
        }
    }

    /** W2: a steady stream with short delays: lag, loss, duplicates, and what Redis spent. */
    record W2(int tasks, long[] sortedLagMicros, int lost, int duplicates, RedisUsage usage, String note) {
        static W2 of(int tasks, long[] lagMicros, int lost, int duplicates, RedisUsage usage, String note) {
            long[] sorted = lagMicros.clone();
            Arrays.sort(sorted);
            return new W2(tasks, sorted, lost, duplicates, usage, note);
        }

        /** The q-quantile of lag in milliseconds (nearest rank). */
        double lagMillis(double q) {
            if (sortedLagMicros.length == 0) {
                return Double.NaN;
            }
            int rank = (int) Math.ceil(q * sortedLagMicros.length) - 1;
            return sortedLagMicros[Math.max(0, Math.min(sortedLagMicros.length - 1, rank))] / 1000.0;
        }

        double maxLagMillis() {
            return sortedLagMicros.length == 0 ? Double.NaN : sortedLagMicros[sortedLagMicros.length - 1] / 1000.0;
        }
    }

    /** Memory: Redis' used_memory growth for a number of waiting tasks with payloads. */
    record Memory(int tasks, long bytes, int idBytes, int payloadBytes, String note) {
        double bytesPerTask() {
            return (double) bytes / tasks;
        }

        /** Bytes per task beyond the id and the payload themselves. */
        double overheadPerTask() {
            return bytesPerTask() - idBytes - payloadBytes;
        }
    }
}
