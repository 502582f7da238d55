package io.delayq.task;

/** What an enqueue did with one task, and the task's due time afterwards (epoch ms, server clock). */
public record EnqueueResult(String id, Status status, long dueAt) {
    public enum Status {
        /** A new task was scheduled. */
        ADDED,
        /** The id exists; nothing changed (REJECT policy). */
        DUPLICATE,
        /** The existing scheduled or dead task was replaced (REPLACE policy). */
        REPLACED,
        /** The existing task was moved to the earlier due time (KEEP_EARLIER policy). */
        EARLIER,
        /** The existing task was already due earlier and was kept (KEEP_EARLIER policy). */
        KEPT,
        /** The task is running; replace and keep-earlier refuse to touch it. */
        INFLIGHT,
        /** The task is in the dead-letter set; keep-earlier leaves it there (replay or replace it). */
        DEAD,
        /** Not added: its due time was not after the server's now (FUTURE_ONLY policy). */
        PAST,
        /**
         * Refused in every policy: the id's dedup window ({@link TaskSpec#dedupWindow}) runs until {@code dueAt},
         * which this result carries instead of a due time. Nothing was written.
         */
        WINDOW;

        static Status fromWire(String s) {
            return switch (s) {
                case "added" -> ADDED;
                case "duplicate" -> DUPLICATE;
                case "replaced" -> REPLACED;
                case "earlier" -> EARLIER;
                case "kept" -> KEPT;
                case "inflight" -> INFLIGHT;
                case "dead" -> DEAD;
                case "past" -> PAST;
                case "window" -> WINDOW;
                default -> throw new IllegalStateException("unknown enqueue result from Redis: " + s);
            };
        }
    }

    public static EnqueueResult fromWire(String id, String status, long dueAt) {
        return new EnqueueResult(id, Status.fromWire(status), dueAt);
    }

    public boolean added() {
        return status == Status.ADDED;
    }
}
