package io.delayq.bulk;

/**
 * The Redis keys of bulk jobs: the job ({@code dq:{q}:bulk:<id>}, HASH), the queue's list of jobs
 * ({@code dq:{q}:bulk}, ZSET id → creation ms), and each shard's cursor ({@code dq:{q:i}:bulk:<id>-e<epoch>}, HASH
 * cursor, done, skipped, at), which bulk_apply.lua derives from the shard's keys and the script job id; on protocol 3 also
 * the ids the job handled on the shard ({@code <cursor key>:handled}, SET).
 */
final class BulkKeys {
    private BulkKeys() {
    }

    static String jobs(String queue) {
        return "dq:{" + queue + "}:bulk";
    }

    static String job(String queue, String id) {
        return jobs(queue) + ":" + id;
    }

    /** The job id the shard scripts see: one walk per layout epoch, so a job resumed after a reshard walks the new shards afresh. */
    static String scriptJob(String id, long epoch) {
        return id + "-e" + epoch;
    }

    static String shardCursor(String queue, int shard, String id, long epoch) {
        return "dq:{" + queue + ":" + shard + "}:bulk:" + scriptJob(id, epoch);
    }

    /** A shard's cursor and, on protocol 3, the ids the job handled there (p3/bulk_apply.lua): they expire together. */
    static java.util.List<String> shardState(String queue, int shard, String id, long epoch) {
        String cursor = shardCursor(queue, shard, id, epoch);
        return java.util.List.of(cursor, cursor + ":handled");
    }
}
