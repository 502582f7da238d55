package io.delayq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Redis' side of the drain profile: runs {@code bench/profile/script_cost.py} (claim and ack with one piece of work
 * taken out at a time, beside the ceiling's scripts, on a redis-server of its own) and returns its table as a report
 * section. It needs {@code /usr/bin/python3} with the {@code redis} module; without them the section says so.
 */
final class ScriptCost {
    static final Path SCRIPT = Path.of("bench", "profile", "script_cost.py");

    private ScriptCost() {
    }

    static String section(int tasks, int batch, int reps) throws IOException, InterruptedException {
        StringBuilder md = new StringBuilder("## Where Redis spends a claim and an ack\n\n`bench/profile/script_cost.py` (started by the "
                + "harness): core's claim.lua and ack.lua on one shard of " + String.format("%,d", tasks) + " due tasks, claims of "
                + String.format("%,d", batch) + " and one ack per claim as in W1, beside variants with one piece of work taken out and "
                + "the ceiling design's two scripts, interleaved " + reps + " times; Redis' own time inside each script call (INFO "
                + "commandstats) per task, 10th percentile / median over the calls. A piece's cost is the baseline minus its variant; "
                + "the variants only measure, each drops something delayq needs.\n\n");
        Process p = new ProcessBuilder("/usr/bin/python3", SCRIPT.toString(), String.valueOf(tasks), String.valueOf(batch), String.valueOf(reps))
                .redirectErrorStream(true).start();
        Path out = Files.createTempFile("script-cost", ".txt");
        try {
            try (var sink = Files.newOutputStream(out)) {
                p.getInputStream().transferTo(sink); // until the script exits: it bounds its own work
            }
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                return md.append("Not measured in this run: ").append(Files.readString(out, StandardCharsets.UTF_8).strip().lines()
                        .reduce((a, b) -> b).orElse("no output")).append("\n").toString();
            }
            return md.append(Files.readString(out, StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("|"))
                    .reduce("", (a, b) -> a + b + "\n")).toString();
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
