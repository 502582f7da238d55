package io.delayq.completion;

import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * How long, and how many per shard, completion records are kept after an ack ({@code DELAYQ_RESULTS_KEEP},
 * {@code DELAYQ_RESULTS_MAX_PER_SHARD}). {@link #OFF} keeps none: the ack does what it did before.
 */
public record ResultRetention(Duration keep, long maxPerShard) {
    public static final ResultRetention OFF = new ResultRetention(Duration.ZERO, 0);

    public ResultRetention {
        if (keep.isNegative()) {
            throw new IllegalArgumentException("results keep: must not be negative, was " + keep);
        }
        if (!keep.isZero() && maxPerShard < 1) {
            throw new IllegalArgumentException("results max per shard: must be at least 1 while results are kept, was " + maxPerShard);
        }
    }

    public boolean on() {
        return !keep.isZero();
    }

    /**
     * Appends the completion records' arguments of an ack (include/completion.lua, for protocol 2's and protocol 3's
     * ack alike): keep ms, most per shard, the worker id, then two per task for the {@code n} tasks in the order the ack
     * names them ({@code attemptOf} and {@code finishedOf} take that order's index).
     */
    public void appendAckArguments(List<String> args, String workerId, int n, IntUnaryOperator attemptOf, IntFunction<Finished> finishedOf) {
        args.add(String.valueOf(keep.toMillis()));
        args.add(String.valueOf(maxPerShard));
        args.add(workerId.replace('|', '_'));
        for (int k = 0; k < n; k++) {
            Finished f = finishedOf.apply(k);
            if (f.recorded()) {
                args.add(attemptOf.applyAsInt(k) + "|" + f.handlerMillis() + "|" + (f.result().truncated() ? "1" : "0"));
                args.add(f.result().text());
            } else {
                args.add("");
                args.add("");
            }
        }
    }
}
