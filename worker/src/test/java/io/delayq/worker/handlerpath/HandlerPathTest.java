package io.delayq.worker.handlerpath;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.WorkerCommand;
import io.delayq.worker.config.CapturedStderr;
import io.delayq.worker.delivery.HandlerPath;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handler jars beside the worker: {@code DELAYQ_HANDLER_PATH} (or {@code /app/handlers}) is read through a
 * child class loader, a handler's own dependency jars with it, and a worker that cannot load its handler
 * exits 2 with one line naming the class and every place it looked.
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

    @RegisterExtension
    final CapturedStderr err = new CapturedStderr();

    private List<String> errLines() {
        return err.lines();
    }

    /** A handler that writes a file per task id into the folder its payload names, through a helper in another jar. */
    private Path handlerWithDependency(Path folder) throws IOException {
        Path dependency = HandlerJars.build(folder.resolve("marker-lib.jar"), Map.of("com.example.lib.Marker", """
                package com.example.lib;
                public final class Marker {
                    public static void mark(String folder, String id) throws java.io.IOException {
                        java.nio.file.Files.writeString(java.nio.file.Path.of(folder, id), "done");
                    }
                }
                """), Map.of());
        return HandlerJars.build(folder.resolve("marking-handler.jar"), Map.of("com.example.MarkingHandler", """
                package com.example;
                public final class MarkingHandler implements io.delayq.handler.TaskHandler {
                    @Override
                    public void handle(io.delayq.handler.Task task) throws Exception {
                        com.example.lib.Marker.mark(task.payload(), task.id());
                    }
                }
                """), Map.of("io.delayq.handler.TaskHandler", "com.example.MarkingHandler"), dependency);
    }

    private Map<String, String> env(String... pairs) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @Test
    void aHandlerJarAndItsDependencyInAFolderOfTheHandlerPathFireTasks() throws IOException {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        handlerWithDependency(handlers);
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
    void aMissingHandlerClassExitsTwoWithOneLineNamingTheClassAndEveryPlace() throws IOException {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        handlerWithDependency(handlers);
        Path extra = HandlerJars.build(tmp.resolve("extra.jar"), Map.of("com.example.Other", "package com.example; public class Other {}"), Map.of());

        int code = WorkerCommand.run(env("DELAYQ_HANDLER_PATH", handlers + ":" + extra, "DELAYQ_HANDLER", "com.example.OrderTimeoutHandler"));

        assertThat(code).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_HANDLER: names no TaskHandler on the classpath: com.example.OrderTimeoutHandler (no such class)")
                .contains("the worker's class path (")
                .contains("DELAYQ_HANDLER_PATH " + handlers + "/ (marker-lib.jar, marking-handler.jar), " + extra);
    }

    @Test
    void noHandlerAnywhereExitsTwoNamingTheEmptyFolder() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("handlers"));

        assertThat(WorkerCommand.run(env("DELAYQ_HANDLER_PATH", empty.toString()))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_DELIVERY: is handler but no TaskHandler is on the classpath")
                .contains("DELAYQ_HANDLER_PATH " + empty + "/ (no jar)")
                .doesNotContain("rename it");
    }

    @Test
    void aServiceFileUnderThe01NameIsNamedWithTheRenameThatFixesIt() throws IOException {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        HandlerJars.build(handlers.resolve("old-handler.jar"), Map.of("com.example.OldHandler", """
                package com.example;
                public final class OldHandler implements io.delayq.handler.TaskHandler {
                    @Override
                    public void handle(io.delayq.handler.Task task) {
                    }
                }
                """), Map.of("io.delayq.worker.delivery.TaskHandler", "com.example.OldHandler"));

        assertThat(WorkerCommand.run(env("DELAYQ_HANDLER_PATH", handlers.toString()))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_DELIVERY: is handler but no TaskHandler is on the classpath")
                .contains("; found META-INF/services/io.delayq.worker.delivery.TaskHandler in old-handler.jar: "
                        + "rename it to io.delayq.handler.TaskHandler");
    }

    @Test
    void anUnreadableJarExitsTwoNamingIt() throws IOException {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        Path broken = Files.writeString(handlers.resolve("truncated.jar"), "not a zip");

        assertThat(WorkerCommand.run(env("DELAYQ_HANDLER_PATH", handlers.toString()))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_HANDLER_PATH: cannot read handler jar " + broken);
    }

    @Test
    void aPathEntryThatDoesNotExistExitsTwoNamingIt() {
        Path missing = tmp.resolve("no-such.jar");

        assertThat(WorkerCommand.run(env("DELAYQ_HANDLER_PATH", missing.toString()))).isEqualTo(2);
        assertThat(errLines()).containsExactly(
                "delayq worker: invalid configuration: DELAYQ_HANDLER_PATH: names " + missing + ", which does not exist");
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
