package io.delayq.worker.dispatch;

import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Data written by hand (or by a buggy producer in another language) that breaks the protocol: the
 * worker dead-letters each bad task at once with the reason, and keeps handling the good ones.
 */
class MalformedTaskTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "handwritten";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    /** What a hand-written producer does: HSET the record (unless null), ZADD the due score. */
    private void writeByHand(String id, double dueScore, String record) {
        ShardKeys k = queue.keys(queue.shardOf(id));
        if (record != null) {
            TestQueue.get(queue.redis().hset(k.record(id), id, record));
        }
        TestQueue.get(queue.redis().zadd(k.due(0), dueScore, id));
    }

    @Test
    void badRecordsAndSecondScoresAreDeadLetteredWithAReasonWhileGoodTasksFlow() {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), task -> handled.add(task.id()));
        long now = queue.serverNow();

        writeByHand("not-json", now - 10, "{payload: cancel order 12");
        writeByHand("seconds", 1764460000, "{\"payload\":\"due in seconds, not ms\"}");
        writeByHand("json-null", now - 10, "null");
        writeByHand("array", now - 10, "[\"cancel\",12]");
        writeByHand("payload-object", now - 10, "{\"payload\":{\"order\":12}}");
        writeByHand("enqueued-text", now - 10, "{\"payload\":\"x\",\"enqueuedAt\":\"yesterday\"}");
        writeByHand("priority-text", now - 10, "{\"payload\":\"p\",\"priority\":\"urgent\"}");
        // valid hand-written tasks: a bare ZADD, a minimal record, unknown fields, a priority written as a numeric string
        // (it must match the set the task is in: "2" here would be dead-lettered, see MalformedCorpusTest)
        writeByHand("bare", now - 10, null);
        writeByHand("minimal", now - 10, "{}");
        writeByHand("extra-fields", now - 10, "{\"payload\":\"p\",\"producer\":\"go-1.22\"}");
        writeByHand("priority-string", now - 10, "{\"payload\":\"p\",\"priority\":\"0\"}");
        List<String> good = new ArrayList<>(List.of("bare", "minimal", "extra-fields", "priority-string"));
        for (int i = 0; i < 10; i++) {
            good.add("good-" + i);
            queue.client().enqueue(TaskSpec.of("good-" + i).payload("fine"));
        }

        Map<String, String> reasons = Map.of(
                "not-json", "not valid JSON",
                "priority-text", "urgent",
                "seconds", "not epoch milliseconds",
                "json-null", "",
                "array", "",
                "payload-object", "",
                "enqueued-text", "");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(handled).containsAll(good);
            for (String id : reasons.keySet()) {
                assertThat(queue.client().inspect(id).state()).as(id).isEqualTo(TaskInfo.State.DEAD);
            }
        });
        reasons.forEach((id, reason) -> {
            TaskInfo dead = queue.client().inspect(id);
            assertThat(dead.attempts()).as(id + " died on its first attempt").isEqualTo(1);
            assertThat(dead.lastError()).as(id).isNotBlank().contains(reason);
            assertThat(handled).as("the handler never sees " + id).doesNotContain(id);
        });
        assertThat(queue.client().inspect("seconds").lastError()).contains("1764460000");
        assertThat(outcomes(w, "retried")).isZero();
        await().untilAsserted(() -> assertThat(outcomes(w, "dead")).isEqualTo(reasons.size()));
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(good.size()));
    }
}
