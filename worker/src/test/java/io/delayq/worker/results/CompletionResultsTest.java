package io.delayq.worker.results;

import io.delayq.completion.CompletionRecord;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.delivery.Receiver;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.settings.WorkerSettings.RESULTS_KEEP;
import static io.delayq.settings.WorkerSettings.RESULTS_MAX_PER_SHARD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real worker keeping completion records (DELAYQ_RESULTS_KEEP): what a handler's {@code task.result()} and a webhook's
 * response body leave for {@code inspect}, and that a worker with results off leaves nothing.
 */
class CompletionResultsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "refunds";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private final List<Receiver> receivers = new ArrayList<>();

    @AfterEach
    void close() {
        workers.close();
        receivers.forEach(Receiver::close);
    }

    private Map<String, String> env(boolean keep) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        if (keep) {
            env.put(RESULTS_KEEP.name(), "1h");
            env.put(RESULTS_MAX_PER_SHARD.name(), "100");
        }
        return env;
    }

    private TaskInfo awaitSucceeded(String id) {
        await().atMost(Duration.ofSeconds(15)).until(() -> queue.client().inspect(id).state() == TaskInfo.State.SUCCEEDED);
        return queue.client().inspect(id);
    }

    @Test
    void whatTheHandlerSetIsKeptWithWhenAfterHowManyAttemptsAndWhichWorker() {
        AtomicInteger calls = new AtomicInteger();
        Worker w = workers.startHandler(env(true), task -> {
            task.result().set("ignored: this attempt fails");
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("bank busy");
            }
            Thread.sleep(30);
            task.result().set("refund r-91 issued for " + task.payload());
        });
        long before = queue.serverNow();
        queue.client().enqueue(TaskSpec.of("refund-8812").payload("€12.50"));

        TaskInfo info = awaitSucceeded("refund-8812");
        CompletionRecord c = info.completion();
        assertThat(c.result()).isEqualTo("refund r-91 issued for €12.50");
        assertThat(c.truncated()).isFalse();
        assertThat(c.attempts()).isEqualTo(2);
        assertThat(info.attempts()).isEqualTo(2);
        assertThat(c.workerId()).isEqualTo(w.presenceId());
        assertThat(c.handlerTime()).isGreaterThanOrEqualTo(Duration.ofMillis(30));
        assertThat(c.finishedAt().toEpochMilli()).isBetween(before, queue.serverNow());
    }

    @Test
    void aResultOverTheBoundIsCutAndFlaggedAndTheTaskIsStillAcked() {
        workers.startHandler(env(true), task -> task.result().set("x".repeat(5000)));
        queue.client().enqueue(TaskSpec.of("big-1"));
        CompletionRecord c = awaitSucceeded("big-1").completion();
        assertThat(c.result()).hasSize(CompletionRecord.RESULT_MAX_BYTES);
        assertThat(c.truncated()).isTrue();
    }

    @Test
    void aWebhooksResponseBodyIsTheResultUpToTheBound() {
        Receiver r = Receiver.start(queue::serverNow, (req, ex) -> Receiver.reply(ex, 200,
                req.id().equals("hook-long") ? "{\"ticket\":\"" + "t".repeat(2000) + "\"}" : "{\"ticket\":\"T-17\"}"));
        receivers.add(r);
        Map<String, String> env = env(true);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", r.url().toString());
        workers.startConfigured(env);
        queue.client().enqueue(TaskSpec.of("hook-short"));
        queue.client().enqueue(TaskSpec.of("hook-long"));

        CompletionRecord shortOne = awaitSucceeded("hook-short").completion();
        assertThat(shortOne.result()).isEqualTo("{\"ticket\":\"T-17\"}");
        assertThat(shortOne.truncated()).isFalse();
        assertThat(shortOne.attempts()).isEqualTo(1);
        CompletionRecord longOne = awaitSucceeded("hook-long").completion();
        assertThat(longOne.result()).hasSize(CompletionRecord.RESULT_MAX_BYTES).startsWith("{\"ticket\":\"ttt");
        assertThat(longOne.truncated()).isTrue();
    }

    @Test
    void aStreamDeliveryKeepsTheEntryIdItAdded() {
        Map<String, String> env = env(true);
        env.put("DELAYQ_DELIVERY", "stream");
        env.put("DELAYQ_STREAM_KEY", "refunds:ready");
        workers.startConfigured(env);
        queue.client().enqueue(TaskSpec.of("s-1"));
        CompletionRecord c = awaitSucceeded("s-1").completion();
        var entries = TestQueue.get(queue.redis().xrange("refunds:ready", io.lettuce.core.Range.create("-", "+")));
        assertThat(entries).hasSize(1);
        assertThat(c.result()).isEqualTo(entries.get(0).getId());
    }

    @Test
    void aWorkerWithResultsOffLeavesNoCompletionKeys() {
        workers.startHandler(env(false), task -> task.result().set("not kept"));
        queue.client().enqueue(TaskSpec.of("plain-1"));
        await().atMost(Duration.ofSeconds(15)).until(() -> queue.client().inspect("plain-1").state() == TaskInfo.State.UNKNOWN
                && queue.allKeys().stream().noneMatch(k -> k.contains(":tasks:")));
        assertThat(queue.allKeys()).noneMatch(k -> k.endsWith(":done") || k.endsWith(":done:at"));
    }
}
