package io.delayq.schedule;

import java.util.Optional;

/**
 * The task id of one occurrence: {@code sched:<name>:<revision>:<epoch-ms>}, e.g.
 * {@code sched:close-books:3:1764547500000} (at most 110 bytes: names are DNS labels). Every planner
 * computes the same id for the same occurrence, so the enqueue's duplicate rejection makes any number
 * of them fire it once; the revision makes an occurrence planned by an edited-away definition
 * recognisable (and cancellable) as such.
 */
public record OccurrenceId(String schedule, long revision, long epochMillis) {
    public static final String PREFIX = "sched:";

    public String id() {
        return PREFIX + schedule + ":" + revision + ":" + epochMillis;
    }

    @Override
    public String toString() {
        return id();
    }

    /** The occurrence a task id names, or empty for ids not of the schedule form. */
    public static Optional<OccurrenceId> parse(String id) {
        if (id == null || !id.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = id.substring(PREFIX.length()).split(":", -1);
        if (parts.length != 3 || !CronSchedule.NAME.matcher(parts[0]).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new OccurrenceId(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
