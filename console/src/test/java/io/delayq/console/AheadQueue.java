package io.delayq.console;

import io.delayq.client.DelayQueueClient;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A queue whose coming hour is known: tasks at set times ahead of the Redis clock (of every priority, some in
 * groups), some beyond the hour, some overdue. What the console's forecast must put in which 5-minute bin.
 */
public final class AheadQueue {
    public static final String QUEUE = "reminders";
    public static final int SHARDS = 4;
    /** Overdue when enqueued: the backlog, in no bin. */
    public static final int OVERDUE = 4;

    /** @param dueAt the due time of every task enqueued for a future time (ms), by id */
    public record Filled(long filledAt, Map<String, Long> dueAt) {
        /** The tasks due within the hour after {@code at}. */
        public long dueWithinHour(long at) {
            return dueAt.values().stream().filter(d -> d > at && d <= at + Duration.ofHours(1).toMillis()).count();
        }

        /** The earliest due time of the tasks enqueued for a future time. */
        public long nextDueAt() {
            return dueAt.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        }
    }

    private AheadQueue() {
    }

    public static Filled fill(RedisEndpoint redis) {
        List<String> time = Replies.await(redis.commands().time(), Duration.ofSeconds(5));
        long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        Map<String, Long> dueAt = new LinkedHashMap<>();
        List<TaskSpec> specs = new ArrayList<>();
        // minutes ahead -> tasks: bins 0, 2, 6 and 11 of the next hour, and beyond it
        int[][] plan = {{2, 3}, {12, 5}, {31, 2}, {59, 1}, {90, 2}};
        for (int[] p : plan) {
            for (int i = 0; i < p[1]; i++) {
                String id = "remind-" + p[0] + "m-" + i;
                long due = now + Duration.ofMinutes(p[0]).toMillis() + i * 1000L;
                TaskSpec t = TaskSpec.of(id).at(java.time.Instant.ofEpochMilli(due));
                // a grouped task waits in its group's set (priority 0), the others in the level's due set
                specs.add(p[0] == 12 ? t.group("tenant-" + (i % 2)) : t.priority(i % (Priority.MAX + 1)));
                dueAt.put(id, due);
            }
        }
        for (int i = 0; i < OVERDUE; i++) {
            specs.add(TaskSpec.of("remind-late-" + i).at(java.time.Instant.ofEpochMilli(now - Duration.ofMinutes(1).toMillis())));
        }
        try (DelayQueueClient c = DelayQueueClient.builder().redis(redis).queue(QUEUE).shards(SHARDS).build()) {
            c.enqueueAll(specs);
        }
        return new Filled(now, dueAt);
    }

    /** How many of the due times fall in each bin (from, to]. */
    public static long count(Collection<Long> dueTimes, long from, long to) {
        return dueTimes.stream().filter(d -> d > from && d <= to).count();
    }
}
