package io.delayq.bulk;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How a bulk job is run: tasks acted on per script call, the pause after each call (so that claims and enqueues
 * get Redis between batches), a stop asked for between two batches, and who hears of the progress.
 */
public record BulkRun(int batch, Duration pause, BooleanSupplier stop, Consumer<BulkJob> progress, Consumer<java.util.List<String>> acted) {
    public static final int DEFAULT_BATCH = 100;
    public static final int MAX_BATCH = 1000;

    public BulkRun {
        if (batch < 1 || batch > MAX_BATCH) {
            throw new io.delayq.InvalidInputException("batch", "must be 1 to " + MAX_BATCH + " tasks per call, got " + batch);
        }
        pause = pause == null ? Duration.ZERO : pause;
        if (pause.isNegative()) {
            throw new io.delayq.InvalidInputException("pause", "must not be negative, got " + pause);
        }
        stop = stop == null ? () -> false : stop;
        progress = progress == null ? j -> { } : progress;
    }

    public BulkRun(int batch, Duration pause, BooleanSupplier stop, Consumer<BulkJob> progress) {
        this(batch, pause, stop, progress, null);
    }

    /** Also hears the ids each batch acted on (an audit trail of its own, or a test's recorder). */
    public BulkRun onActed(Consumer<java.util.List<String>> ids) {
        return new BulkRun(batch, pause, stop, progress, ids);
    }

    public static BulkRun defaults() {
        return new BulkRun(DEFAULT_BATCH, Duration.ofMillis(2), null, null);
    }

    public BulkRun batch(int n) {
        return new BulkRun(n, pause, stop, progress, acted);
    }

    public BulkRun pause(Duration d) {
        return new BulkRun(batch, d, stop, progress, acted);
    }

    public BulkRun stopWhen(BooleanSupplier s) {
        return new BulkRun(batch, pause, s, progress, acted);
    }

    public BulkRun onProgress(Consumer<BulkJob> p) {
        return new BulkRun(batch, pause, stop, p, acted);
    }
}
