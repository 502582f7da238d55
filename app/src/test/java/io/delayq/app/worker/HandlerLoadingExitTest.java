package io.delayq.app.worker;

import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.config.CapturedStderr;
import io.delayq.worker.config.EnvChanges;
import io.delayq.worker.dispatch.RunningWorkers;
import io.delayq.worker.handlerpath.HandlerJars;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker process that cannot load its handler exits 2 with one line naming the class and every place it looked. */
class HandlerLoadingExitTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "jars";

    @TempDir
    Path tmp;

    @RegisterExtension
    final CapturedStderr err = new CapturedStderr();

    private List<String> errLines() {
        return err.lines();
    }

    private Map<String, String> env(String... pairs) {
        return EnvChanges.apply(RunningWorkers.env(redis.url(), Q, 2), pairs);
    }

    @Test
    void aMissingHandlerClassExitsTwoWithOneLineNamingTheClassAndEveryPlace() throws IOException {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        HandlerJars.markingHandlerWithDependency(handlers);
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
}
