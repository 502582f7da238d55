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
import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;

import java.time.Duration;
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

    public record Counts(int scheduled, int due, int inflight, int dead) {
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
            c.schedules().put(CronSchedule.of(SCHEDULE, "5 0 * * *").timeZone("Asia/Shanghai").payload("{\"action\":\"close-day\"}"));
            return new Counts(scheduled, overdue.size(), running.size(), failing.size());
        }
    }
}
