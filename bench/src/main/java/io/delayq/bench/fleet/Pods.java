package io.delayq.bench.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * A simulated worker Deployment's pods: each is paid for from the moment it is asked for and fires only from its
 * start-up on. Scaling down removes the pods that would be ready last first (Kubernetes deletes a not-ready pod
 * before a ready one).
 */
final class Pods {
    private final long startupMs;
    private final List<Long> readyAt = new ArrayList<>();
    private double replicaSeconds;
    private int peak;

    Pods(long startupMs) {
        this.startupMs = startupMs;
    }

    void scaleTo(int replicas, long now) {
        while (readyAt.size() < replicas) {
            readyAt.add(now + startupMs);
        }
        readyAt.sort(null);
        while (readyAt.size() > replicas) {
            readyAt.remove(readyAt.size() - 1);
        }
        peak = Math.max(peak, replicas);
    }

    int ready(long now) {
        int n = 0;
        for (long at : readyAt) {
            if (at <= now) {
                n++;
            }
        }
        return n;
    }

    /** Bills every pod, ready or starting, for {@code ms}. */
    void bill(long ms) {
        replicaSeconds += readyAt.size() * ms / 1000.0;
    }

    double replicaSeconds() {
        return replicaSeconds;
    }

    int peak() {
        return peak;
    }
}
