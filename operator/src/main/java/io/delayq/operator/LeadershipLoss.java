package io.delayq.operator;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a replica does when it stops leading. Losing the Lease while running ends the process, as the
 * SDK's {@code exitOnStopLeading} would: Kubernetes restarts the pod, which comes back as a follower,
 * and reconciliations already queued here never race the new leader's.
 * <p>
 * Stopping on purpose ({@link #closing()}) is not a loss. JOSDK 5.2.3 calls its stop-leading callback
 * from {@code Operator.stop()} too, and with {@code exitOnStopLeading} it then calls
 * {@code System.exit(1)}: in a pod from the shutdown hook, where it blocks on the JVM's shutdown lock
 * until the kubelet kills the pod; in a test, the test JVM dies. So the SDK's exit is off and this
 * class decides. The Lease is not released on close (the SDK cancels its elector without releasing):
 * another replica takes it once it expires.
 */
final class LeadershipLoss {
    private static final Logger LOG = LoggerFactory.getLogger(LeadershipLoss.class);

    /**
     * Ends the process from a thread of its own: the SDK calls back on one of its executor threads,
     * and the shutdown hook's {@code Operator.stop()} waits for those threads to finish.
     */
    static final Runnable EXIT = () -> new Thread(() -> System.exit(1), "delayq-operator-lost-lease").start();

    private final Runnable onLoss;
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile boolean closing;

    LeadershipLoss(Runnable onLoss) {
        this.onLoss = onLoss;
    }

    /** From now on, stopping to lead is the expected end of a close. */
    void closing() {
        closing = true;
    }

    LeaderCallbacks callbacks() {
        return new LeaderCallbacks(() -> LOG.info("this replica leads: reconciling"), this::stoppedLeading, leader -> {
        });
    }

    private void stoppedLeading() {
        if (closing) {
            LOG.info("stopped leading on shutdown; another replica takes the Lease when it expires");
            return;
        }
        // The elector may report one loss twice (seeing the new holder, then ending its renew loop).
        if (lost.compareAndSet(false, true)) {
            LOG.error("lost the leader Lease while running: stopping, so that only the new leader reconciles");
            onLoss.run();
        }
    }
}
