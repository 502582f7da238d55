package io.delayq.schedule;

/**
 * A definition as Redis holds it in {@code dq:{q}:schedules}: {@code <revision>|<updatedAt ms>|<json>}.
 * The put script bumps the revision and stamps updatedAt (Redis time) whenever the JSON changes.
 */
public record StoredSchedule(long revision, long updatedAt, CronSchedule definition, String raw) {

    public static StoredSchedule parse(String raw) {
        int a = raw.indexOf('|');
        int b = raw.indexOf('|', a + 1);
        if (a < 0 || b < 0) {
            throw new IllegalStateException("malformed schedule record in Redis: " + raw);
        }
        return new StoredSchedule(Long.parseLong(raw.substring(0, a)), Long.parseLong(raw.substring(a + 1, b)),
                CronSchedule.fromJson(raw.substring(b + 1)), raw);
    }

    public OccurrenceId occurrence(long epochMillis) {
        return new OccurrenceId(definition.name(), revision, epochMillis);
    }
}
