package io.delayq.prometheus;

import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.delivery.Outcome;
import io.delayq.handler.Task;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A delivery target for these tests: tasks whose id starts with "dead-" are dead-lettered,
 * "retry-" ones retried, and, when {@link #holding()}, every other task blocks until
 * {@link #release()}, so that the rest of a queue stays due while Prometheus looks at it.
 */
final class ScriptedDelivery implements Delivery {
    private final boolean hold;
    private final CountDownLatch firstHeld = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger delivered = new AtomicInteger();

    private ScriptedDelivery(boolean hold) {
        this.hold = hold;
    }

    static ScriptedDelivery acking() {
        return new ScriptedDelivery(false);
    }

    static ScriptedDelivery holding() {
        return new ScriptedDelivery(true);
    }

    @Override
    public Outcome deliver(Task task) {
        delivered.incrementAndGet();
        if (task.id().startsWith("dead-")) {
            return new Outcome.Dead("scripted permanent failure");
        }
        if (task.id().startsWith("retry-")) {
            return new Outcome.Retry("scripted transient failure", null);
        }
        if (hold) {
            firstHeld.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                // The worker is closing: the task goes back to due after its lease.
                Thread.currentThread().interrupt();
                return new Outcome.Retry("worker stopped", null);
            }
        }
        return Outcome.DONE;
    }

    /** Lets held tasks finish (acked), so that the worker can stop cleanly. */
    void release() {
        release.countDown();
    }

    boolean holdsATask() {
        return firstHeld.getCount() == 0;
    }

    int delivered() {
        return delivered.get();
    }
}
