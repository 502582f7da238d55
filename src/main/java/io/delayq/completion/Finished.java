package io.delayq.completion;

/**
 * How one acked task ended, for its completion record: how long its handler ran and what it returned. {@link #NO_RECORD}
 * for a task acked without having run (an expired task discarded): it gets no completion record.
 */
public record Finished(long handlerMillis, BoundedResult result) {
    public static final Finished NO_RECORD = new Finished(-1, BoundedResult.NONE);

    public boolean recorded() {
        return handlerMillis >= 0;
    }
}
