package io.delayq.worker.delivery;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;
import io.delayq.handler.TaskResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

import static io.delayq.settings.WorkerSettings.DELIVERY;
import static io.delayq.settings.WorkerSettings.HANDLER;

/** Delivers to an in-process {@link TaskHandler}. */
public final class HandlerDelivery implements Delivery {
    private static final Logger LOG = LoggerFactory.getLogger(HandlerDelivery.class);
    private final TaskHandler handler;
    /** The handler's own loader, as the context loader of the calls into it (libraries in its jars look there). */
    private final ClassLoader loader;

    public HandlerDelivery(TaskHandler handler) {
        this.handler = handler;
        this.loader = handler.getClass().getClassLoader();
    }

    /** A delivery to {@code handler}, started with {@code context}. */
    public static HandlerDelivery started(TaskHandler handler, HandlerContext context) {
        HandlerDelivery delivery = new HandlerDelivery(handler);
        delivery.start(context);
        return delivery;
    }

    /**
     * The handler named by {@code DELAYQ_HANDLER} ({@code className}), or the only one ServiceLoader finds, on the
     * worker's class path or in the jars of {@code path}. A named class need not be listed in
     * {@code META-INF/services}: it is loaded and built with its no-argument constructor.
     */
    public static TaskHandler load(String className, HandlerPath path) {
        ClassLoader loader = path.loader(HandlerDelivery.class.getClassLoader());
        List<TaskHandler> found;
        try {
            found = ServiceLoader.load(TaskHandler.class, loader).stream().map(ServiceLoader.Provider::get).toList();
        } catch (ServiceConfigurationError e) {
            throw new HandlerNotLoadable(className == null ? HandlerPath.VARIABLE : HANDLER.name(),
                    "cannot load a TaskHandler listed in META-INF/services" + (className == null ? "" : " (looking for " + className + ")")
                            + ": " + oneLine(e) + "; looked in " + path.describe());
        }
        if (className != null) {
            return found.stream().filter(h -> h.getClass().getName().equals(className)).findFirst()
                    .orElseGet(() -> instantiate(className, loader, path));
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        if (found.isEmpty()) {
            throw new HandlerNotLoadable(DELIVERY.name(), "is handler but no TaskHandler is on the classpath or in "
                    + HandlerPath.VARIABLE + ": looked for META-INF/services/io.delayq.handler.TaskHandler in " + path.describe()
                    + LegacyServiceFiles.hint(loader) + "; add a handler jar there, or use webhook or stream");
        }
        throw new HandlerNotLoadable(HANDLER.name(), "must name one of the TaskHandlers found: "
                + found.stream().map(h -> h.getClass().getName()).toList());
    }

    private static TaskHandler instantiate(String className, ClassLoader loader, HandlerPath path) {
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new HandlerNotLoadable(HANDLER.name(), "names no TaskHandler on the classpath: " + className
                    + (e instanceof ClassNotFoundException ? " (no such class)" : " (" + oneLine(e) + ")") + "; looked in " + path.describe());
        }
        if (!TaskHandler.class.isAssignableFrom(type)) {
            throw new HandlerNotLoadable(HANDLER.name(), "names a class that does not implement " + TaskHandler.class.getName()
                    + ": " + className + " (in " + where(type) + ")");
        }
        try {
            return (TaskHandler) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ite ? ite.getCause() : e;
            throw new HandlerNotLoadable(HANDLER.name(), "names a TaskHandler that cannot be built with a public no-argument constructor: "
                    + className + " (in " + where(type) + "): " + oneLine(cause));
        }
    }

    private static String where(Class<?> type) {
        var source = type.getProtectionDomain().getCodeSource();
        return source == null ? "the worker's class path" : source.getLocation().toString();
    }

    private static String oneLine(Throwable e) {
        String text = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return text.replace('\n', ' ');
    }

    /** The handler's class and where it was loaded from: with handler jars in several places, which one won is not obvious. */
    @Override
    public String target() {
        return "handler " + handler.getClass().getName() + " (from " + where(handler.getClass()) + ")";
    }

    public void start(HandlerContext context) {
        ClassLoader previous = enter();
        try {
            handler.start(context);
        } catch (Exception e) {
            throw new IllegalStateException("handler " + handler.getClass().getName() + " failed to start: " + e.getMessage(), e);
        } finally {
            leave(previous);
        }
    }

    @Override
    public Outcome deliver(Task task) {
        ClassLoader previous = enter();
        try {
            ResultSlot result = new ResultSlot();
            handler.handle(task.withResult(result));
            return Outcome.done(result.text);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Retry("interrupted (worker shutting down)", null);
        } catch (Throwable e) {
            // any Error too (AssertionError, OutOfMemoryError...): an outcome must always reach Redis, or the
            // task stays leased (and heartbeated) for as long as this worker lives
            return Outcome.of(e);
        } finally {
            leave(previous);
        }
    }

    /** Where a handler's {@code task.result().set(…)} goes: the latest value wins (bounded when the ack keeps it). */
    private static final class ResultSlot implements TaskResult {
        private volatile String text;

        @Override
        public void set(String text) {
            this.text = text;
        }
    }

    private ClassLoader enter() {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        if (loader != null && previous != loader) {
            t.setContextClassLoader(loader);
        }
        return previous;
    }

    private void leave(ClassLoader previous) {
        Thread.currentThread().setContextClassLoader(previous);
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
