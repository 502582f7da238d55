package io.delayq.task;

import java.math.BigDecimal;

/**
 * How far a running task has got, as its handler last reported it: {@code percent} (0 to 100), a {@code note} ("" when
 * none) and when the worker wrote it ({@code at}, epoch ms on the Redis clock). Stored as {@code <at>|<percent>|<note>}
 * in the shard's progress hash while the task is in flight.
 */
public record TaskProgress(double percent, String note, long at) {

    /** The stored form, or null when it is not one (a foreign write). */
    public static TaskProgress parse(String stored) {
        if (stored == null) {
            return null;
        }
        int first = stored.indexOf('|');
        int second = first < 0 ? -1 : stored.indexOf('|', first + 1);
        if (second < 0) {
            return null;
        }
        try {
            return new TaskProgress(Double.parseDouble(stored.substring(first + 1, second)), stored.substring(second + 1),
                    Long.parseLong(stored.substring(0, first)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A percent as written to Redis: shortest decimal, no exponent, no trailing ".0" ("40", "12.5"). */
    public static String percentText(double percent) {
        return BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString();
    }

    /** "40 %" or "40 %: 4,000 of 10,000 rows". */
    public String summary() {
        return percentText(percent) + " %" + (note.isEmpty() ? "" : ": " + note);
    }
}
