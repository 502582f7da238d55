package io.delayq.console.sample;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.schedule.CronSchedule;
import io.delayq.redis.Replies;
import io.delayq.task.ExpiryAction;
import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Something to look at in a console started without a Redis of its own: queue {@code shop-orders}
 * with tasks in every state (scheduled over the next hours, overdue, in flight under a long lease,
 * dead with their errors) and a recurring schedule. Built with the real scripts, as a worker would leave them.
 */
public final class SampleQueue {
    public static final String QUEUE = "shop-orders";
    public static final int SHARDS = 8;
    /** The sample queue's recurring schedule: daily at 00:05 Asia/Shanghai. */
    public static final String SCHEDULE = "close-books";

    private SampleQueue() {
    }

    /** Scheduled tasks beyond those {@code fill} is asked for: the two with per-task options and the hand-written one. */
    public static final int WITH_OPTIONS = 3;
    /** A task with every per-task option, one with only an expiry, and one a hand-written producer wrote with a group key. */
    public static final String CAPTURE = "capture-7001";
    public static final String REMINDER = "reminder-7002";
    public static final String GROUPED = "invoice-7003";
    public static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    public static final String TRACESTATE = "congo=t61rcWkgMzE";
    /** {@link #GROUPED}'s record as a hand-written producer stores it: a group key and a field no version of delayq knows. */
    public static final String GROUPED_RECORD = "{\"payload\":\"{\\\"invoice\\\":7003}\",\"enqueuedAt\":1764460000000,\"group\":\"tenant-42\","
            + "\"region\":{\"zone\":\"eu-1\",\"racks\":[3,4]}}";

    /**
     * @param withOptions the tasks enqueued with per-task options (scheduled, counted in {@code scheduled}), as sent
     * @param groupedDueAt the due time of {@link #GROUPED}
     */
    public record Counts(int scheduled, int due, int inflight, int dead, List<TaskSpec> withOptions, long groupedDueAt) {
    }

    /** Scheduled hours ahead, with per-task options: expiry (discard / dead-letter), retry overrides, trace context. */
    static List<TaskSpec> withOptions(long now) {
        return List.of(
                TaskSpec.of(CAPTURE).at(Instant.ofEpochMilli(now + Duration.ofHours(2).toMillis())).payload("{\"capture\":\"P-7001\"}")
                        .expiresAt(Instant.ofEpochMilli(now + Duration.ofHours(3).toMillis()), ExpiryAction.DISCARD)
                        .maxAttempts(10).backoff(Duration.ofSeconds(2), Duration.ofMinutes(10), 3)
                        .traceContext(TRACEPARENT, TRACESTATE),
                TaskSpec.of(REMINDER).at(Instant.ofEpochMilli(now + Duration.ofHours(5).toMillis())).payload("{\"remind\":7002}")
                        .expiresAt(Instant.ofEpochMilli(now + Duration.ofDays(2).toMillis())).maxAttempts(2));
    }

    public static Counts fill(RedisEndpoint redis, int scheduled) {
        try (DelayQueueClient c = DelayQueueClient.builder().redis(redis).queue(QUEUE).shards(SHARDS).build()) {
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < scheduled; i++) {
                specs.add(TaskSpec.of("order-" + (10_000 + i)).after(Duration.ofSeconds(60 + i * 7L))
                        .payload("{\"action\":\"cancel-if-unpaid\",\"order\":" + (10_000 + i) + "}"));
            }
            c.enqueueAll(specs);
            QueueProtocol p = c.protocol();
            // claimed and killed first, so that the due tasks enqueued next are not claimed with them
            List<String> failing = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                failing.add("payout-" + (500 + i));
            }
            c.enqueueAll(failing.stream().map(id -> TaskSpec.of(id).after(Duration.ZERO).payload("{\"payout\":\"" + id + "\"}")).toList());
            String[] errors = {"HTTP 503 from https://payments.internal/payouts", "connect timed out after 10000 ms", "HTTP 410 Gone: account closed"};
            int n = 0;
            for (int s = 0; s < SHARDS; s++) {
                ClaimBatch b = Replies.await(p.claim(s, 500, Duration.ofMinutes(5), RateLimit.NONE), Duration.ofSeconds(10));
                for (ClaimedTask t : b.tasks()) {
                    Replies.await(p.retry(t, Duration.ZERO, errors[n++ % errors.length], 1, true, DeadLetterPolicy.DEFAULT),
                            Duration.ofSeconds(10));
                }
            }
            List<TaskSpec> running = List.of(TaskSpec.of("coupon-expire-77").after(Duration.ZERO).payload("{\"coupon\":\"C-77\"}"),
                    TaskSpec.of("coupon-expire-78").after(Duration.ZERO).payload("{\"coupon\":\"C-78\"}"));
            c.enqueueAll(running);
            for (TaskSpec t : running) {
                Replies.await(p.claim(p.shardOf(t.id()), 10, Duration.ofMinutes(30), RateLimit.NONE), Duration.ofSeconds(10));
            }
            List<TaskSpec> overdue = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                overdue.add(TaskSpec.of("order-" + (9_000 + i)).after(Duration.ZERO).priority(i % 10 == 0 ? Priority.HIGH : Priority.NORMAL)
                        .payload("{\"action\":\"cancel-if-unpaid\",\"order\":" + (9_000 + i) + "}"));
            }
            c.enqueueAll(overdue);
            // a recurring schedule (its occurrences appear once a worker plans them)
            io.delayq.schedule.Schedules.of(c).put(CronSchedule.of(SCHEDULE, "5 0 * * *").timeZone("Asia/Shanghai").payload("{\"action\":\"close-day\"}"));
            List<TaskSpec> optioned = withOptions(System.currentTimeMillis());
            c.enqueueAll(optioned);
            // written by hand, as docs/protocol.md teaches: record, then the due set
            long groupedDue = System.currentTimeMillis() + Duration.ofHours(4).toMillis();
            io.delayq.shard.ShardKeys k = p.keys(p.shardOf(GROUPED));
            Replies.await(redis.commands().hset(k.record(GROUPED), GROUPED, GROUPED_RECORD), Duration.ofSeconds(10));
            Replies.await(redis.commands().zadd(k.due(0), (double) groupedDue, GROUPED), Duration.ofSeconds(10));
            return new Counts(scheduled + WITH_OPTIONS, overdue.size(), running.size(), failing.size(), optioned, groupedDue);
        }
    }
}
