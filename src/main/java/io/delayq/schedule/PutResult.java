package io.delayq.schedule;

/** What a put of a schedule definition did, and the revision it has afterwards. */
public record PutResult(String name, Status status, long revision, long updatedAt) {
    public enum Status {
        ADDED, CHANGED, UNCHANGED,
        /** A read-modify-write (pause, resume) met a revision changed meanwhile; nothing was written. */
        CONFLICT
    }
}
