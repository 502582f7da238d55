package io.delayq.chaos.recorder;

/** One recorded handler execution: a line of a worker's record file. */
public record Execution(String id, int attempt, long dueAt, long startMillis, long endMillis, long pid) {

    /** Parses {@code id attempt dueAt start end pid}; null for a line that is not complete. */
    static Execution parse(String line) {
        String[] f = line.trim().split(" ");
        if (f.length != 6) {
            return null;
        }
        try {
            return new Execution(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4]), Long.parseLong(f[5]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public boolean overlaps(Execution other) {
        return startMillis <= other.endMillis && other.startMillis <= endMillis;
    }
}
