package io.delayq.bench;

import java.io.IOException;
import java.nio.file.Path;

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
        return "## Where Redis spends a claim and an ack\n\n`bench/profile/script_cost.py` (started by the "
                + "harness): core's claim.lua and ack.lua on one shard of " + String.format("%,d", tasks) + " due tasks, claims of "
                + String.format("%,d", batch) + " and one ack per claim as in W1, beside variants with one piece of work taken out and "
                + "the ceiling design's two scripts, interleaved " + reps + " times; Redis' own time inside each script call (INFO "
                + "commandstats) per task, 10th percentile / median over the calls. A piece's cost is the baseline minus its variant; "
                + "the variants only measure, each drops something delayq needs.\n\n"
                + ProfileScript.table(SCRIPT, tasks, batch, reps);
    }
}
