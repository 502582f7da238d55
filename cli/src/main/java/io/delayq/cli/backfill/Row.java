package io.delayq.cli.backfill;

import io.delayq.task.TaskSpec;

/** One row of a backfill file: a task to add, or the reason it was rejected. {@code line} is 1-based. */
record Row(long line, TaskSpec task, String rejection) {
    static Row ok(long line, TaskSpec task) {
        return new Row(line, task, null);
    }

    static Row rejected(long line, String reason) {
        return new Row(line, null, reason);
    }

    boolean isRejected() {
        return rejection != null;
    }
}
