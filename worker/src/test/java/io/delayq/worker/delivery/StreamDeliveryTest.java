package io.delayq.worker.delivery;

import io.delayq.handler.Task;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stream hand-off: due tasks are appended to a ready stream and read by a real consumer group
 * (XREADGROUP / XACK); a task is acked in the delay queue only once its XADD succeeded.
 */
class StreamDeliveryTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "transfer";
    private static final String STREAM = "orders:ready";
    private static final String GROUP = "billing";

    private final List<GroupConsumer> consumers = new ArrayList<>();
    /** Task id → every stream entry that carried it, over all consumers of the group. */
    private final Map<String, List<Map<String, String>>> received = new ConcurrentHashMap<>();
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @AfterEach
    void close() {
        consumers.forEach(GroupConsumer::close);
        workers.close();
    }

    private Worker worker(Map<String, String> extra) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put("DELAYQ_DELIVERY", "stream");
        env.put("DELAYQ_STREAM_KEY", STREAM);
        env.putAll(extra);
        return workers.startConfigured(env);
    }

    private void createGroup() {
        TestQueue.get(queue.redis().xgroupCreate(XReadArgs.StreamOffset.from(STREAM, "0"), GROUP, XGroupCreateArgs.Builder.mkstream()));
    }

    private void startConsumers(int n) {
        for (int i = 0; i < n; i++) {
            GroupConsumer c = new GroupConsumer(redis.url(), "consumer-" + i, received);
            consumers.add(c);
            c.start();
        }
    }

    @Test
    void aConsumerGroupReceivesEveryTaskExactlyOnceWithItsFields() {
        createGroup();
        startConsumers(2);
        Worker w = worker(Map.of());
        long base = queue.serverNow() - 2000;
        int n = 300;
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(TaskSpec.of("order-" + i).at(Instant.ofEpochMilli(base + i)).payload("{\"order\":" + i + "}"));
        }
        queue.client().enqueueAll(tasks);

        await().atMost(Duration.ofSeconds(30)).until(() -> received.size() == n);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(n));
        for (int i = 0; i < n; i++) {
            String id = "order-" + i;
            assertThat(received.get(id)).as(id).singleElement().satisfies(fields -> {
                assertThat(fields).containsEntry("id", id).containsEntry("queue", Q).containsEntry("attempt", "1");
                assertThat(fields.get("dueAt")).isEqualTo(String.valueOf(base + Integer.parseInt(id.substring(6))));
                assertThat(fields.get("payload")).isEqualTo("{\"order\":" + id.substring(6) + "}");
            });
        }
        assertThat(TestQueue.get(queue.redis().xlen(STREAM))).isEqualTo((long) n);
        await().untilAsserted(() -> assertThat(TestQueue.get(queue.redis().xpending(STREAM, GROUP)).getCount()).isZero());
        assertThat(queue.client().stats().shards()).allSatisfy(s -> {
            assertThat(s.due() + s.scheduled() + s.inflight() + s.dead()).isZero();
        });
    }

    @Test
    void aFailedAppendIsRetriedAndTheTaskArrivesOnceTheStreamIsFixed() {
        // a plain string where the stream should be: every XADD fails with WRONGTYPE
        TestQueue.get(queue.redis().set(STREAM, "not a stream"));
        Worker w = worker(Map.of("DELAYQ_RETRY_MAX_ATTEMPTS", "100"));
        queue.client().enqueue(TaskSpec.of("order-77").payload("cancel-if-unpaid"));

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect("order-77"),
                t -> t.attempts() >= 3 && t.lastError() != null);
        TaskInfo failing = queue.client().inspect("order-77");
        assertThat(failing.state()).isIn(TaskInfo.State.SCHEDULED, TaskInfo.State.IN_FLIGHT);
        assertThat(failing.lastError()).contains("XADD").contains(STREAM).contains("WRONGTYPE");
        assertThat(outcomes(w, "acked")).isZero();
        assertThat(outcomes(w, "dead")).isZero();
        assertThat(TestQueue.get(queue.redis().get(STREAM))).isEqualTo("not a stream");

        TestQueue.get(queue.redis().del(STREAM));
        createGroup();
        startConsumers(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.containsKey("order-77"));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect("order-77").state() == TaskInfo.State.UNKNOWN);
        // attempts failed when Redis was asked: an attempt in flight then had not failed yet (it may be the one that arrives)
        int failed = failing.state() == TaskInfo.State.IN_FLIGHT ? failing.attempts() - 1 : failing.attempts();
        assertThat(received.get("order-77")).singleElement().satisfies(fields -> {
            assertThat(fields).containsEntry("payload", "cancel-if-unpaid");
            assertThat(Integer.parseInt(fields.get("attempt"))).isGreaterThan(failed).isGreaterThanOrEqualTo(3);
        });
        assertThat(TestQueue.get(queue.redis().xlen(STREAM))).isEqualTo(1L);
        assertThat(outcomes(w, "acked")).isEqualTo(1);
    }

    /** A member of the consumer group: XREADGROUP on its own connection, XACK after recording each entry. */
    private static final class GroupConsumer extends Thread implements AutoCloseable {
        private final RedisEndpoint redis;
        private final String name;
        private final Map<String, List<Map<String, String>>> into;
        private volatile boolean running = true;

        GroupConsumer(String url, String name, Map<String, List<Map<String, String>>> into) {
            super("test-" + name);
            setDaemon(true);
            this.redis = RedisEndpoint.connect(url);
            this.name = name;
            this.into = into;
        }

        @Override
        public void run() {
            RedisClusterAsyncCommands<String, String> c = redis.commands();
            while (running) {
                try {
                    List<StreamMessage<String, String>> batch = TestQueue.get(c.xreadgroup(Consumer.from(GROUP, name),
                            XReadArgs.Builder.block(200).count(50), XReadArgs.StreamOffset.lastConsumed(STREAM)));
                    for (StreamMessage<String, String> m : batch) {
                        into.computeIfAbsent(m.getBody().get("id"), k -> new CopyOnWriteArrayList<>()).add(m.getBody());
                        TestQueue.get(c.xack(STREAM, GROUP, m.getId()));
                    }
                } catch (RuntimeException e) {
                    if (running) {
                        System.err.println(name + ": " + e);
                    }
                }
            }
        }

        @Override
        public void close() {
            running = false;
            try {
                join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            redis.close();
        }
    }
}
