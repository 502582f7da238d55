package io.delayq.worker.handlerpath;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Builds real jars at test time from Java source (the JDK's compiler), so that a handler class exists only
 * in its jar and never on the test's class path: loading it proves the worker read the jar.
 */
public final class HandlerJars {
    private HandlerJars() {
    }

    /**
     * Compiles {@code sources} (class name → source) against the test class path plus {@code extraClassPath} and
     * writes them with {@code services} (service file name → its lines) into {@code jar}.
     */
    public static Path build(Path jar, Map<String, String> sources, Map<String, String> services, Path... extraClassPath) throws IOException {
        Path src = Files.createTempDirectory("handler-src");
        Path classes = Files.createTempDirectory("handler-classes");
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "--release", "17", "-cp",
                System.getProperty("java.class.path") + Stream.of(extraClassPath).map(p -> ":" + p).reduce("", String::concat)));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        if (javac.run(null, null, errors, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("compiling the test handler failed: " + errors.toString(StandardCharsets.UTF_8));
        }
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                jos.putNextEntry(new JarEntry(classes.relativize(f).toString()));
                jos.write(Files.readAllBytes(f));
                jos.closeEntry();
            }
            for (Map.Entry<String, String> e : services.entrySet()) {
                jos.putNextEntry(new JarEntry("META-INF/services/" + e.getKey()));
                jos.write((e.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
                jos.closeEntry();
            }
        }
        return jar;
    }

    /** A handler that writes a file per task id into the folder its payload names, through a helper in another jar. */
    public static Path markingHandlerWithDependency(Path folder) throws IOException {
        Path dependency = build(folder.resolve("marker-lib.jar"), Map.of("com.example.lib.Marker", """
                package com.example.lib;
                public final class Marker {
                    public static void mark(String folder, String id) throws java.io.IOException {
                        java.nio.file.Files.writeString(java.nio.file.Path.of(folder, id), "done");
                    }
                }
                """), Map.of());
        return build(folder.resolve("marking-handler.jar"), Map.of("com.example.MarkingHandler", """
                package com.example;
                public final class MarkingHandler implements io.delayq.handler.TaskHandler {
                    @Override
                    public void handle(io.delayq.handler.Task task) throws Exception {
                        com.example.lib.Marker.mark(task.payload(), task.id());
                    }
                }
                """), Map.of("io.delayq.handler.TaskHandler", "com.example.MarkingHandler"), dependency);
    }
}
