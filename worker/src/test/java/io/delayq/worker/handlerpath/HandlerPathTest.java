package io.delayq.worker.handlerpath;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.config.EnvChanges;
import io.delayq.worker.delivery.HandlerPath;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handler jars beside the worker: {@code DELAYQ_HANDLER_PATH} (or {@code /app/handlers}) is read through a
 * child class loader, a handler's own dependency jars with it. (How the executable reports a handler it cannot
 * load: the app module's HandlerLoadingExitTest.)
 */
class HandlerPathTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "jars";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @TempDir
    Path tmp;

    private Map<String, String> env(String... pairs) {
        return EnvChanges.apply(RunningWorkers.env(redis.url(), Q, 2), pairs);
    }

    @Test
    void aHandlerJarAndItsDependencyInAFolderOfTheHandlerPathFireTasks() throws IOException {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        HandlerJars.markingHandlerWithDependency(handlers);
        Path out = Files.createDirectories(tmp.resolve("out"));
        assertThat(classVisibleToTests("com.example.MarkingHandler")).isFalse();

        workers.startConfigured(env("DELAYQ_HANDLER_PATH", handlers.toString()));
        queue.client().enqueue(TaskSpec.of("order-1").payload(out.toString()));

        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(out.resolve("order-1")));
    }

    @Test
    void aClassNamedByDelayqHandlerNeedsNoServiceFile() throws IOException {
        Path jar = HandlerJars.build(tmp.resolve("plain.jar"), Map.of("com.example.PlainHandler", """
                package com.example;
                public final class PlainHandler implements io.delayq.handler.TaskHandler {
                    @Override
                    public void handle(io.delayq.handler.Task task) throws Exception {
                        java.nio.file.Files.writeString(java.nio.file.Path.of(task.payload(), task.id()), "done");
                    }
                }
                """), Map.of());
        Path out = Files.createDirectories(tmp.resolve("out"));

        workers.startConfigured(env("DELAYQ_HANDLER_PATH", jar.toString(), "DELAYQ_HANDLER", "com.example.PlainHandler"));
        queue.client().enqueue(TaskSpec.of("order-2").payload(out.toString()));

        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(out.resolve("order-2")));
    }

    @Test
    void theDefaultFolderIsUsedOnlyWhenItExistsAndTheVariableIsUnset() throws IOException {
        Path folder = tmp.resolve("app-handlers");
        assertThat(HandlerPath.of(null, folder).entries()).isEmpty();
        Files.createDirectories(folder);
        assertThat(HandlerPath.of(null, folder).entries()).containsExactly(folder);
        assertThat(HandlerPath.of(" ", folder).entries()).containsExactly(folder);
        assertThat(HandlerPath.of("/a.jar:/b", folder).entries()).containsExactly(Path.of("/a.jar"), Path.of("/b"));
    }

    private static boolean classVisibleToTests(String name) {
        try {
            Class.forName(name, false, HandlerPathTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
