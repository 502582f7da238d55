package io.delayq.worker.delivery;

import io.delayq.handler.TaskHandler;
import io.delayq.handler.Task;
import io.delayq.handler.HandlerContext;
import io.delayq.worker.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.ServiceLoader;

/** Delivers to an in-process {@link TaskHandler}. */
public final class HandlerDelivery implements Delivery {
    private static final Logger LOG = LoggerFactory.getLogger(HandlerDelivery.class);
    private final TaskHandler handler;

    public HandlerDelivery(TaskHandler handler) {
        this.handler = handler;
    }

    /** The handler named by {@code DELAYQ_HANDLER}, or the only one ServiceLoader finds. */
    public static HandlerDelivery discover(String className, HandlerContext context) {
        List<TaskHandler> found = ServiceLoader.load(TaskHandler.class).stream().map(ServiceLoader.Provider::get).toList();
        TaskHandler chosen;
        if (className != null) {
            chosen = found.stream().filter(h -> h.getClass().getName().equals(className)).findFirst()
                    .orElseThrow(() -> new ConfigException("DELAYQ_HANDLER", "names no TaskHandler on the classpath: " + className
                            + " (found: " + found.stream().map(h -> h.getClass().getName()).toList() + ")"));
        } else if (found.size() == 1) {
            chosen = found.get(0);
        } else if (found.isEmpty()) {
            throw new ConfigException("DELAYQ_DELIVERY", "is handler but no TaskHandler is on the classpath "
                    + "(add one with META-INF/services/io.delayq.handler.TaskHandler, or use webhook or stream)");
        } else {
            throw new ConfigException("DELAYQ_HANDLER", "must name one of the TaskHandlers found: "
                    + found.stream().map(h -> h.getClass().getName()).toList());
        }
        HandlerDelivery delivery = new HandlerDelivery(chosen);
        delivery.start(context);
        return delivery;
    }

    public void start(HandlerContext context) {
        try {
            handler.start(context);
        } catch (Exception e) {
            throw new IllegalStateException("handler " + handler.getClass().getName() + " failed to start: " + e.getMessage(), e);
        }
    }

    @Override
    public Outcome deliver(Task task) {
        try {
            handler.handle(task);
            return Outcome.DONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Retry("interrupted (worker shutting down)", null);
        } catch (Throwable e) {
            // any Error too (AssertionError, OutOfMemoryError...): an outcome must always reach Redis, or the
            // task stays leased (and heartbeated) for as long as this worker lives
            return Outcome.of(e);
        }
    }

    @Override
    public void close() {
        try {
            handler.stop();
        } catch (Exception e) {
            LOG.warn("handler {} failed to stop: {}", handler.getClass().getName(), e.toString());
        }
    }
}
