package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;

import java.util.Set;
import java.util.function.Consumer;

/**
 * Tells the operator that a DelayQueue is gone, so it can close its Redis connection and drop its
 * metric series. An event source rather than a finalizer: the owned objects go by garbage
 * collection anyway, and a finalizer would block deleting DelayQueues once the operator is uninstalled.
 */
final class DeletionWatcher extends AbstractEventSource<DeletionWatcher.Nothing, DelayQueue>
        implements ResourceEventAware<DelayQueue> {
    private final Consumer<DelayQueue> onDeleted;

    DeletionWatcher(Consumer<DelayQueue> onDeleted) {
        super(Nothing.class, "delayqueue-deletions");
        this.onDeleted = onDeleted;
    }

    @Override
    public void onResourceDeleted(DelayQueue resource) {
        onDeleted.accept(resource);
    }

    @Override
    public Set<Nothing> getSecondaryResources(DelayQueue primary) {
        return Set.of();
    }

    /** This source tracks no secondary resources. */
    static final class Nothing {
        private Nothing() {
        }
    }
}
