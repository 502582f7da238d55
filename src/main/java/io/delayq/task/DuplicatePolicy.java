package io.delayq.task;

/** What an enqueue does when a task with the same id already exists. */
public enum DuplicatePolicy {
    /** Leave the existing task alone and report a duplicate (the default: ids are idempotency keys). */
    REJECT("reject"),
    /** Replace a scheduled or dead task's time and record; a task in flight is refused. */
    REPLACE("replace"),
    /** Keep whichever due time is earlier; the existing record stays. */
    KEEP_EARLIER("keep-earlier"),
    /**
     * As REJECT, and a task whose due time is not after the server's now is refused (status PAST): the
     * recurring-task planner enqueues an occurrence this way, so a planner that stalled cannot create an
     * occurrence again after it fired and was acked (a task that is not due yet cannot have fired).
     */
    FUTURE_ONLY("future-only"),
    /**
     * As REJECT, and an id enqueued with this policy before (within a week, kept in the shard's
     * {@code dq:{q:i}:once} set) is a duplicate even after it was acked and is gone: the recurring-task
     * planner fires owed due-now occurrences this way, so firing one again after a crash is harmless.
     */
    ONCE("once"),
    /**
     * FUTURE_ONLY and ONCE together: refused when not due after the server's now (PAST, and then not remembered), and
     * remembered in the once set like ONCE otherwise. The recurring-task planner adds occurrences ahead this way: one
     * added ahead by a planner that died before recording its turn, then fired and acked, stays a duplicate when the
     * next planner finds it owed and enqueues it with ONCE. Costs an entry in the once set per id for a week.
     */
    FUTURE_ONCE("future-once"),
    /**
     * Debounce with a maximum wait ("replace, but fire no later than the burst's first enqueue + max wait"): every
     * task must carry {@link TaskSpec#debounce}. A waiting task of the id is replaced (record and due time), but its
     * due time never moves past the deadline its burst's first enqueue fixed (kept in the record); an absent id is
     * added with a new deadline; a task in flight is refused (status INFLIGHT, nothing written: the running
     * handler already has the older payload, so the caller decides whether the new one still needs to run).
     */
    DEBOUNCE("debounce");

    private final String wire;

    DuplicatePolicy(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
