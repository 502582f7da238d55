package io.delayq.bench;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What closing the drain gap to the ceiling would cost: runs {@code bench/profile/record_layouts.py}, which puts candidate
 * layouts of the task records side by side on a redis-server of its own (claim + ack time per task, memory per waiting
 * task, cancel and reschedule by id), and returns its table as a report section with the text that says how to read it.
 */
final class RecordLayouts {
    static final Path SCRIPT = Path.of("bench", "profile", "record_layouts.py");

    private RecordLayouts() {
    }

    static String section(int reps, int batch) throws IOException, InterruptedException {
        return "## Record layouts: what closing the gap would cost\n\n`bench/profile/record_layouts.py` (started by the harness, "
                + "~3–4 minutes): where the records live is most of the per-task work between delayq and the ceiling, so each "
                + "candidate layout is modelled by a minimal claim, ack, cancel and reschedule script (the ceiling's two scripts plus "
                + "what the layout needs; every per-task check of core's scripts — ids, scores, priority levels, attempts, the replay "
                + "key, groups — is left out of all of them alike), on 4 shards of a redis-server of its own. Columns: Redis' own time "
                + "inside the scripts (INFO commandstats) per task, 10th percentile (median in brackets) over claims of "
                + String.format("%,d", batch) + " and one ack each, interleaved " + reps + " times, for W1 (100,000 tasks due at one instant; claim + ack), W2's "
                + "due times (100,000 uniform over 2 s) and W1 stored on top of the memory workload (a drain while 1,000,000 tasks "
                + "wait: id-hash buckets then also hold the waiting records that each lookup and delete scans past); the W1 saving "
                + "against protocol 2's row; memory (Δ`used_memory` per task for 1,000,000 waiting tasks with 50-byte payloads and "
                + "10-byte ids, due times spread over a day, minus the 60 bytes of id and payload); one cancel and one reschedule by "
                + "id on that full set (median script time of 100 each); what the layout asks of the protocol. Due-time buckets "
                + "(`floor(due / W)`) put a claim's tasks into one or a few hashes: one `HMGET` and one `HDEL` per bucket instead of "
                + "one per task. A hash stays a compact listpack while it holds ≤ `hash-max-listpack-entries` (512) entries of "
                + "≤ 64 bytes, so a bucket's fill (tasks per shard per second × W, or per id-hash bucket) decides its memory, and a "
                + "listpack is searched linearly, so a full one makes every lookup slower. Two reference rows run core's real "
                + "scripts and the ceiling's on the same data: the minimal protocol-2 row against core's full scripts shows what "
                + "the other per-task work costs, which no layout removes.\n\n"
                + ProfileScript.table(SCRIPT, reps, batch);
    }
}
