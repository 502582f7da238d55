package io.delayq.worker.delivery;

import io.delayq.settings.WorkerSettings;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Where a worker looks for handler jars beyond its own class path: {@code DELAYQ_HANDLER_PATH}, a
 * {@code :}-separated list of jar files and of folders whose {@code *.jar} are all taken (a handler
 * with its dependencies), or {@code /app/handlers} when the variable is unset and that folder exists
 * (the stock image's place for them). The jars are read through one child class loader of the
 * worker's, so the worker's own classes and the handler API win over a copy bundled in a handler jar.
 */
public final class HandlerPath {
    public static final String VARIABLE = WorkerSettings.HANDLER_PATH.name();
    public static final Path DEFAULT = Path.of("/app/handlers");

    private final List<Path> entries;

    private HandlerPath(List<Path> entries) {
        this.entries = List.copyOf(entries);
    }

    /** From the variable's value; {@code defaultFolder} is used when it is unset or blank and that folder exists. */
    public static HandlerPath of(String value, Path defaultFolder) {
        if (value == null || value.isBlank()) {
            return new HandlerPath(Files.isDirectory(defaultFolder) ? List.of(defaultFolder) : List.of());
        }
        return new HandlerPath(Arrays.stream(value.split(File.pathSeparator)).map(String::trim).filter(s -> !s.isEmpty())
                .map(Path::of).toList());
    }

    public static HandlerPath of(String value) {
        return of(value, DEFAULT);
    }

    public List<Path> entries() {
        return entries;
    }

    /** Every jar the entries name, in order; an entry that is missing or a jar that cannot be read is refused. */
    public List<Path> jars() {
        Set<Path> jars = new LinkedHashSet<>();
        for (Path entry : entries) {
            if (Files.isDirectory(entry)) {
                try (Stream<Path> files = Files.list(entry)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
                } catch (IOException e) {
                    throw unreadable(entry, e);
                }
            } else if (Files.exists(entry)) {
                jars.add(entry);
            } else {
                throw new HandlerNotLoadable(VARIABLE, "names " + entry + ", which does not exist");
            }
        }
        jars.forEach(HandlerPath::checkReadable);
        return List.copyOf(jars);
    }

    private static void checkReadable(Path jar) {
        try (JarFile ignored = new JarFile(jar.toFile())) {
            // opening reads the central directory: a truncated or non-zip file fails here, not at the first task
        } catch (IOException | SecurityException e) {
            throw unreadable(jar, e);
        }
    }

    private static HandlerNotLoadable unreadable(Path path, Exception e) {
        return new HandlerNotLoadable(VARIABLE, "cannot read handler jar " + path + ": " + e.getMessage());
    }

    /** A loader over the jars whose parent is {@code parent}; {@code parent} itself when there are none. */
    public ClassLoader loader(ClassLoader parent) {
        List<Path> jars = jars();
        if (jars.isEmpty()) {
            return parent;
        }
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                throw unreadable(jar, e);
            }
        }
        return new URLClassLoader("delayq-handlers", urls.toArray(URL[]::new), parent);
    }

    /** Where a handler was looked for, for the one line a worker prints when it finds none. */
    public String describe() {
        String classPath = ClassPathSummary.of(System.getProperty("java.class.path", ""));
        if (entries.isEmpty()) {
            return "the worker's class path (" + classPath + ") and " + VARIABLE + " (unset, and " + DEFAULT + " does not exist)";
        }
        List<String> places = new ArrayList<>();
        for (Path entry : entries) {
            if (Files.isDirectory(entry)) {
                try (Stream<Path> files = Files.list(entry)) {
                    List<String> names = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".jar")).sorted().toList();
                    places.add(entry + "/ (" + (names.isEmpty() ? "no jar" : String.join(", ", names)) + ")");
                } catch (IOException e) {
                    places.add(entry + "/ (unreadable)");
                }
            } else {
                places.add(entry.toString());
            }
        }
        return "the worker's class path (" + classPath + ") and " + VARIABLE + " " + String.join(", ", places);
    }
}
