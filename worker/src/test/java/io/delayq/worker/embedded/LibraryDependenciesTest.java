package io.delayq.worker.embedded;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service that embeds a worker gets the worker library's run-time class path (written by the build to
 * {@code target/library-class-path.txt}): nothing of the executable, and exactly what the embedded-worker
 * guide says it brings.
 */
class LibraryDependenciesTest {
    private static final Pattern JAR = Pattern.compile("(.+?)-\\d[^/]*\\.jar");
    private static final Pattern MODULE = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>");

    private static List<String> artifacts() throws IOException {
        String classPath = Files.readString(Path.of("target", "library-class-path.txt")).trim();
        return Pattern.compile(java.io.File.pathSeparator).splitAsStream(classPath)
                .map(Path::of).map(LibraryDependenciesTest::artifactOf).toList();
    }

    /** A jar's artifact id from its file name; in a reactor build a module comes as its classes folder, named by its pom. */
    private static String artifactOf(Path entry) {
        if (Files.isDirectory(entry)) {
            try {
                Matcher m = MODULE.matcher(Files.readString(entry.getParent().getParent().resolve("pom.xml")));
                return m.find() ? m.group(1) : entry.toString();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        Matcher m = JAR.matcher(entry.getFileName().toString());
        return m.matches() ? m.group(1) : entry.getFileName().toString();
    }

    /** The backticked names between the guide's library-class-path markers; a trailing * matches a prefix. */
    private static List<String> documented() throws IOException {
        String guide = Files.readString(Path.of("..", "docs", "embedded-worker.md"));
        String section = guide.substring(guide.indexOf("<!-- library-class-path -->"), guide.indexOf("<!-- /library-class-path -->"));
        return Pattern.compile("`([A-Za-z0-9.*-]+)`").matcher(section).results().map(r -> r.group(1)).toList();
    }

    private static boolean matches(String pattern, String artifact) {
        return pattern.endsWith("*") ? artifact.startsWith(pattern.substring(0, pattern.length() - 1)) : artifact.equals(pattern);
    }

    @Test
    void theLibraryBringsNoPartOfTheExecutableAndNoLoggingBackend() throws IOException {
        assertThat(artifacts()).isNotEmpty()
                .doesNotContain("delayq-app", "delayq-cli", "delayq-console", "delayq-local-redis", "picocli",
                        "slf4j-simple", "logback-classic", "log4j-slf4j2-impl");
    }

    @Test
    void everyJarOnTheLibraryClassPathIsNamedInTheGuideAndEveryNameIsAJar() throws IOException {
        List<String> artifacts = artifacts();
        List<String> documented = documented();
        assertThat(documented).as("names in docs/embedded-worker.md").isNotEmpty();
        assertThat(artifacts.stream().filter(a -> documented.stream().noneMatch(p -> matches(p, a))))
                .as("jars the guide does not name").isEmpty();
        assertThat(documented.stream().filter(p -> artifacts.stream().noneMatch(a -> matches(p, a))))
                .as("names in the guide that match no jar").isEmpty();
    }
}
