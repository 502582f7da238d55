package io.delayq.prometheus;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real promtool and keeps its exit code and output. */
public final class Promtool {
    private final Path binary;

    public Promtool(Path binary) {
        this.binary = binary;
    }

    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** `promtool check metrics` reads the exposition text on standard input. */
    public Result checkMetrics(String exposition) {
        return run(Path.of("."), exposition, "check", "metrics");
    }

    public Result checkRules(Path ruleFile) {
        return run(ruleFile.getParent(), null, "check", "rules", ruleFile.toString());
    }

    /** Runs in the test file's folder, as its rule_files paths are relative to it. */
    public Result testRules(Path testFile) {
        return run(testFile.getParent(), null, "test", "rules", testFile.getFileName().toString());
    }

    private Result run(Path dir, String stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile("promtool-", ".out");
            try {
                Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(out.toFile()).start();
                try (OutputStream in = p.getOutputStream()) {
                    if (stdin != null) {
                        in.write(stdin.getBytes(StandardCharsets.UTF_8));
                    }
                }
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    throw new IllegalStateException("promtool did not finish within 60 s: " + command);
                }
                return new Result(p.exitValue(), Files.readString(out));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }
}
