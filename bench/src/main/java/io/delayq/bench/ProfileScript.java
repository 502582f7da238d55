package io.delayq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the Python studies in {@code bench/profile/} ({@code /usr/bin/python3} with the {@code redis} module; each
 * starts a redis-server of its own and bounds its own work) and keeps the Markdown table it prints: its lines that
 * start with {@code |}. Without python3, its module or redis-server, the answer says why instead.
 */
final class ProfileScript {
    private ProfileScript() {
    }

    static String table(Path script, Object... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3", script.toString()));
        for (Object a : args) {
            command.add(String.valueOf(a));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        Path out = Files.createTempFile("profile", ".txt");
        try {
            try (var sink = Files.newOutputStream(out)) {
                p.getInputStream().transferTo(sink); // until the script exits
            }
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "Not measured in this run: " + Files.readString(out, StandardCharsets.UTF_8).strip().lines()
                        .reduce((a, b) -> b).orElse("no output") + "\n";
            }
            return Files.readString(out, StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("|"))
                    .reduce("", (a, b) -> a + b + "\n");
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
