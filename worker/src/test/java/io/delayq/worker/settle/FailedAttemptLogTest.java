package io.delayq.worker.settle;

import io.delayq.handler.PermanentFailure;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.LogCapture;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real worker whose handler fails: each failed attempt is one WARN line naming the task, its queue and shard,
 * the attempt, what happens next (the retry's time, or the dead-letter set) and the exception; a failure storm
 * prints at most {@link FailureLog#LINES_PER_WINDOW} lines per window and accounts for every other failure in
 * a "suppressed" line.
 */
class FailedAttemptLogTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "failing";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final LogCapture log = new LogCapture();

    private Map<String, String> env(int maxAttempts) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", String.valueOf(maxAttempts));
        return env;
    }

    @Test
    void eachFailedAttemptIsOneLineWithTheRetryTimeThenTheDeadLetter() {
        workers.startHandler(env(2), task -> {
            throw new IllegalStateException("payment service down\n(HTTP 503)");
        });
        queue.client().enqueue(TaskSpec.of("order-8812").payload("p"));
        int shard = queue.shardOf("order-8812");
        String failed = "task \"order-8812\" failed on attempt ";

        await().atMost(Duration.ofSeconds(10)).until(() -> log.lines(failed).size() == 2);
        List<String> lines = log.lines(failed);
        // the first retry waits DELAYQ_RETRY_BACKOFF_INITIAL (100ms, no jitter), on the Redis clock
        assertThat(lines.get(0)).contains("WARN").matches(".*" + Pattern.quote(failed + "1 of 2 (queue " + Q + ", shard " + shard
                + "), retry at ") + "\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z" + Pattern.quote(" (in 100ms): IllegalStateException: payment service down (HTTP 503)"));
        assertThat(lines.get(1)).endsWith(failed + "2 of 2 (queue " + Q + ", shard " + shard
                + "), dead-lettered (attempts used up): IllegalStateException: payment service down (HTTP 503)");
    }

    @Test
    void aPermanentFailureIsDeadLetteredAtOnce() {
        workers.startHandler(env(5), task -> {
            throw new PermanentFailure("card declined");
        });
        queue.client().enqueue(TaskSpec.of("payout-W17"));

        await().atMost(Duration.ofSeconds(10)).until(() -> !log.lines("task \"payout-W17\" failed").isEmpty());
        assertThat(log.lines("task \"payout-W17\" failed")).singleElement().asString()
                .endsWith("failed on attempt 1 of 5 (queue " + Q + ", shard " + queue.shardOf("payout-W17")
                        + "), dead-lettered (permanent failure): PermanentFailure: card declined");
    }

    @Test
    void aStormIsCappedAndEveryFailureAccountedFor() {
        int tasks = 5 * FailureLog.LINES_PER_WINDOW;
        Worker w = workers.startHandler(env(1), task -> {
            throw new IllegalStateException("receiver down");
        });
        for (int i = 0; i < tasks; i++) {
            queue.client().enqueue(TaskSpec.of("storm-" + i));
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> RunningWorkers.outcomes(w, "dead") == tasks);
        // the summary comes at the end of the window (the worker ticks every second), the storm being over
        await().atMost(FailureLog.WINDOW.plusSeconds(5)).until(() -> printed() + suppressed() == tasks);

        assertThat(suppressed()).as("a storm of " + tasks + " failures is mostly summed up").isPositive();
        assertThat(log.lines("suppressed ")).allMatch(l -> l.contains("WARN") && l.contains(" similar lines (failed attempts: 0 retried, "));
    }

    private int printed() {
        return log.lines("failed on attempt 1 of 1 (queue " + Q).size();
    }

    private long suppressed() {
        Pattern count = Pattern.compile("suppressed (\\d+) similar lines");
        return log.lines("suppressed ").stream().map(count::matcher).filter(Matcher::find).mapToLong(m -> Long.parseLong(m.group(1))).sum();
    }
}
