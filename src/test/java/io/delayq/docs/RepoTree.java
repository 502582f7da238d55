package io.delayq.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The repository as files: its root (found from the test's working folder, whichever module runs it), its
 * markdown pages and its Java sources. Build output, installed packages and hidden folders are not part of it.
 */
final class RepoTree {
    private static final Set<String> NOT_SOURCE = Set.of("target", "node_modules");

    private final Path root;

    private RepoTree(Path root) {
        this.root = root;
    }

    /** The nearest folder, from the working folder upwards, that holds README.md and docs/architecture.md. */
    static RepoTree find() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isRegularFile(p.resolve("docs/architecture.md"))) {
                return new RepoTree(p);
            }
        }
        throw new IllegalStateException("no folder above " + Path.of("").toAbsolutePath() + " holds README.md and docs/architecture.md");
    }

    Path root() {
        return root;
    }

    /** The path as the failure messages show it: relative to the root, with forward slashes. */
    String show(Path p) {
        return root.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    /**
     * Every page a reader opens: README.md, docs/*.md and the other modules' READMEs. Markdown under a
     * {@code src} folder is a fragment that a generator pastes into a page elsewhere, so its links are that page's.
     */
    List<Path> markdownPages() {
        return files(p -> p.toString().endsWith(".md") && !underSrc(p));
    }

    /** Every .java file of every module, main and test. */
    List<Path> javaSources() {
        return files(p -> p.toString().endsWith(".java"));
    }

    private boolean underSrc(Path p) {
        Path folder = root.relativize(p).getParent();
        if (folder != null) {
            for (Path part : folder) {
                if (part.toString().equals("src")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Walks the tree once, never entering build output, installed packages or hidden folders. */
    private List<Path> files(Predicate<Path> wanted) {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    boolean skip = !dir.equals(root) && (NOT_SOURCE.contains(name) || name.startsWith("."));
                    return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && wanted.test(file)) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        found.sort(null);
        return found;
    }
}
