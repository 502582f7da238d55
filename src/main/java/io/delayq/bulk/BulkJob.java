package io.delayq.bulk;

/**
 * A bulk run as the queue's Redis keeps it ({@code dq:{q}:bulk:<id>}); each shard's cursor and counts live in
 * that shard's {@code dq:{q:i}:bulk:<id>.<epoch>} and are written by the batch that advances them.
 *
 * @param total   matches the preview counted when the job was created (the run may find more or fewer)
 * @param done    tasks acted on so far
 * @param skipped tasks matched but left as they were (run-now: already due; a shift outside 1970..9999)
 * @param epoch   the layout epoch the job runs under (the shards of that layout)
 * @param note    why the job stopped, when it did
 */
public record BulkJob(String id, String queue, BulkFilter filter, BulkAction action, Status status, long total, long done,
                      long skipped, long epoch, int shards, long createdAt, String by, long updatedAt, String note) {
    public enum Status {
        /** Created, or a runner is at it (or was, and died: resume it). */
        RUNNING,
        /** Stopped between two batches (asked to, or refused by a reshard): resume it. */
        STOPPED,
        /** Every shard walked through. */
        DONE;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public boolean finished() {
        return status == Status.DONE;
    }
}
