package io.delayq.chart;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's parts are, seen from the helm module's tests. */
public final class RepoPaths {
    private RepoPaths() {
    }

    /** The repository root: Surefire passes it; from an IDE the module folder's parent is it. */
    public static Path root() {
        String configured = System.getProperty("delayq.repo.root");
        Path root = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath().getParent();
        root = root.toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("helm"))) {
            throw new IllegalStateException("not the delayq repository root: " + root + " (set -Ddelayq.repo.root)");
        }
        return root;
    }

    public static Path chart() {
        return root().resolve("helm/delayq-operator");
    }

    /** The CRD the operator's build generates and commits: the one source the chart ships. */
    public static Path generatedCrd() {
        return root().resolve("crds/delayqueues.delayq.io-v1.yml");
    }

    public static Path crdExamples() {
        return root().resolve("crds/examples");
    }
}
