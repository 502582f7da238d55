package io.delayq.testkit;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Passes every call to the handler under test and writes down each attempt and its outcome. */
final class RecordingHandler implements TaskHandler {
    private final TaskHandler handler;
    private final List<Attempt> attempts = new CopyOnWriteArrayList<>();

    RecordingHandler(TaskHandler handler) {
        this.handler = handler;
    }

    @Override
    public void start(HandlerContext context) throws Exception {
        handler.start(context);
    }

    @Override
    public void handle(Task task) throws Exception {
        try {
            handler.handle(task);
            attempts.add(new Attempt(task, null, System.currentTimeMillis()));
        } catch (Throwable e) {
            attempts.add(new Attempt(task, e, System.currentTimeMillis()));
            throw e;
        }
    }

    @Override
    public void stop() throws Exception {
        handler.stop();
    }

    List<Attempt> attempts(String id) {
        return attempts.stream().filter(a -> a.task().id().equals(id)).toList();
    }

    List<Attempt> all() {
        return List.copyOf(attempts);
    }
}
