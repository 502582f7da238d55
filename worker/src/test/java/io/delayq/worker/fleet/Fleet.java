package io.delayq.worker.fleet;

import io.delayq.settings.WorkerSettings;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

/** In-process workers for fleet tests, with a recording handler shared by all of them. */
public final class Fleet implements AutoCloseable {
    public final ConcurrentLinkedQueue<Delivered> deliveries = new ConcurrentLinkedQueue<>();
    public final ConcurrentHashMap<String, Integer> countById = new ConcurrentHashMap<>();
    private final List<Worker> workers = new ArrayList<>();

    public record Delivered(String id, int attempt, long dueAt, long handledAtMillis, String payload) {
    }

    public static Map<String, String> env(String redisUrl, String queue, int shards) {
        Map<String, String> env = new HashMap<>();
        env.put(WorkerSettings.REDIS_URL.name(), redisUrl);
        env.put(WorkerSettings.QUEUE.name(), queue);
        env.put(WorkerSettings.SHARDS.name(), String.valueOf(shards));
        env.put(WorkerSettings.HTTP_PORT.name(), "0");
        return env;
    }

    public TaskHandler recorder(TaskHandler then) {
        return task -> {
            record(task);
            then.handle(task);
        };
    }

    public TaskHandler recorder() {
        return this::record;
    }

    private void record(Task task) {
        deliveries.add(new Delivered(task.id(), task.attempt(), task.dueAt(), System.currentTimeMillis(), task.payload()));
        countById.merge(task.id(), 1, Integer::sum);
    }

    public Worker start(Map<String, String> env, TaskHandler handler) {
        return start(env, handler, System::currentTimeMillis);
    }

    public Worker start(Map<String, String> env, TaskHandler handler, LongSupplier wallClock) {
        Worker w = Worker.start(WorkerConfig.fromEnv(env), redis -> new HandlerDelivery(handler), wallClock);
        workers.add(w);
        return w;
    }

    @Override
    public void close() {
        workers.forEach(Worker::close);
    }
}
