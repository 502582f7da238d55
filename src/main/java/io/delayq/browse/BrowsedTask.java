package io.delayq.browse;

import io.delayq.task.TaskRecord;

/**
 * One task of a browse page. {@code score}: due time (scheduled, due), lease expiry (in flight) or
 * time of death (dead). The record is a preview of at most the requested bytes; {@code recordBytes}
 * is its full length (-1: no record, a bare ZADD task).
 */
public record BrowsedTask(String id, int shard, BrowseState state, long score, int priority, int attempts,
                          String lastError, String recordPreview, long recordBytes) {

    public Position position() {
        return new Position(score, id);
    }

    /** The payload part of the preview (the compact form's header removed), or the raw preview when it is not readable. */
    public String payloadPreview() {
        if (recordPreview == null) {
            return "";
        }
        if (!recordPreview.startsWith("{")) {
            try {
                String p = TaskRecord.decode(recordPreview).payload();
                return p == null ? "" : p;
            } catch (RuntimeException e) {
                return recordPreview;
            }
        }
        return recordPreview;
    }

    public boolean previewTruncated() {
        return recordPreview != null && recordBytes > recordPreview.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }
}
