package io.delayq.worker.delivery;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** A class path in one short phrase: its folders, and its jars counted per folder (an image's has dozens). */
final class ClassPathSummary {
    private ClassPathSummary() {
    }

    static String of(String classPath) {
        Map<String, Integer> jarsPerFolder = new LinkedHashMap<>();
        Map<String, Boolean> folders = new LinkedHashMap<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path p = Path.of(entry);
            if (entry.endsWith(".jar") || entry.endsWith("/*") || !Files.isDirectory(p)) {
                Path parent = p.toAbsolutePath().getParent();
                jarsPerFolder.merge(parent == null ? "/" : parent.toString(), 1, Integer::sum);
            } else {
                folders.put(p.toString(), true);
            }
        }
        String dirs = String.join(", ", folders.keySet());
        String jars = jarsPerFolder.entrySet().stream().map(e -> e.getValue() + " jar" + (e.getValue() == 1 ? "" : "s") + " in " + e.getKey())
                .collect(Collectors.joining(", "));
        String both = dirs.isEmpty() ? jars : jars.isEmpty() ? dirs : dirs + ", " + jars;
        return both.isEmpty() ? "empty" : both;
    }
}
