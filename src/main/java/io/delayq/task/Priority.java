package io.delayq.task;

import io.delayq.InvalidInputException;

/**
 * Priority levels. When due tasks pile up, higher levels are claimed first; priority never makes
 * a task fire before its due time (each level is its own due set, the score stays the due time).
 */
public final class Priority {
    public static final int NORMAL = 0;
    public static final int HIGH = 1;
    public static final int HIGHEST = 2;
    public static final int MAX = HIGHEST;

    private Priority() {
    }

    public static int require(int level) {
        if (level < 0 || level > MAX) {
            throw new InvalidInputException("priority", "must be 0 (normal), 1 (high) or 2 (highest), got " + level);
        }
        return level;
    }
}
