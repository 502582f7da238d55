package io.delayq.pause;

/** The steps of pause.lua: a pause is one step (then the shards), a resume two (around the shards). */
public enum PauseStep {
    /** Record the pause and take an epoch. */
    PAUSE("pause"),
    /** Take an epoch for a resume; the record stays (marked resuming) until {@link #RESUMED}. */
    RESUME("resume"),
    /** Clear the record, unless a later call took an epoch meanwhile. */
    RESUMED("resumed");

    private final String wire;

    PauseStep(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
