package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.claim.ClaimedTask;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.handler.Task;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.Priority;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.delayq.interop.Ops.enqueue;
import static io.delayq.interop.Ops.op;
import static io.delayq.interop.Ops.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Python (sync and asyncio), Node and Go producers against the Java side on one real Redis: their tasks
 * fire in a Java worker with the right payload, priority and due time, woken by the marker the scripts
 * write; the Java client inspects, reschedules and cancels what they wrote and they do the same with
 * what Java wrote; the duplicate policies answer as Java's do; the Java worker honours their per-task options.
 */
class ProducerInteropTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final int SHARDS = 8;
    private final List<AutoCloseable> open = new ArrayList<>();

    static List<Producer> producers() {
        return Producer.all();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    private ProducerProcess producer(Producer p, String queue) {
        return track(p.connect(redis.url(), queue, SHARDS)).connected();
    }

    private TestQueue java(String queue) {
        return track(TestQueue.open(redis.url(), queue, SHARDS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void tasksFromTheProducerFireInTheJavaWorkerWithPayloadPriorityAndDueTime(Producer p) {
        String queue = "fire-" + p.name();
        TestQueue q = java(queue);
        Map<String, Task> fired = new ConcurrentHashMap<>();
        Map<String, String> env = new HashMap<>(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", queue,
                "DELAYQ_SHARDS", String.valueOf(SHARDS), "DELAYQ_HTTP_PORT", "0", "DELAYQ_LEASE", "5s",
                // a worker with nothing to do sleeps this long: only the enqueue script's marker wakes it sooner
                "DELAYQ_POLL_INTERVAL", "60s", "DELAYQ_SHUTDOWN_GRACE", "2s"));
        Worker worker = track(Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(t -> fired.put(t.id(), t))));
        await().atMost(Duration.ofSeconds(20)).until(worker::ready);

        ProducerProcess producer = producer(p, queue);
        long before = System.currentTimeMillis();
        long at = q.serverNow() + 700;
        JsonNode results = producer.ok(enqueue(
                task("order-8812", "delayMs", 300, "payload", "{\"action\":\"cancel-if-unpaid\",\"amount\":12.5}"),
                task("payout-W-17", "dueAt", at, "payload", "pay: \"W-17\" \\ now", "priority", 2),
                task("заказ-7", "delayMs", 400, "payload", "привет, мир — ünïcödé ✓ 注文", "priority", 1),
                task("id-only", "delayMs", 200),
                task("empty-payload", "delayMs", 100, "payload", "")));
        long after = System.currentTimeMillis();
        assertThat(results).allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
        assertThat(results.get(1).get("dueAt").asLong()).isEqualTo(at);

        await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 5);
        Map<String, Object[]> expected = Map.of(
                "order-8812", new Object[]{"{\"action\":\"cancel-if-unpaid\",\"amount\":12.5}", 0},
                "payout-W-17", new Object[]{"pay: \"W-17\" \\ now", 2},
                "заказ-7", new Object[]{"привет, мир — ünïcödé ✓ 注文", 1},
                "id-only", new Object[]{null, 0},
                "empty-payload", new Object[]{"", 0});
        for (int i = 0; i < results.size(); i++) {
            String id = results.get(i).get("id").asText();
            Task t = fired.get(id);
            assertThat(t.payload()).as("payload of %s", id).isEqualTo(expected.get(id)[0]);
            assertThat(t.priority()).as("priority of %s", id).isEqualTo(expected.get(id)[1]);
            assertThat(t.dueAt()).as("due time of %s", id).isEqualTo(results.get(i).get("dueAt").asLong());
            assertThat(t.enqueuedAt()).as("enqueuedAt of %s (the producer's clock)", id).isBetween(before - 1000, after + 1000);
            assertThat(t.attempt()).isEqualTo(1);
            assertThat(t.shard()).isEqualTo(q.shardOf(id));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void javaInspectsReschedulesAndCancelsWhatTheProducerWrote(Producer p) {
        String queue = "java-reads-" + p.name();
        TestQueue q = java(queue);
        ProducerProcess producer = producer(p, queue);
        long at = q.serverNow() + 3_600_000;
        producer.ok(enqueue(task("order-1", "dueAt", at, "payload", "close it", "priority", 1),
                task("order-2", "delayMs", 60_000)));

        DelayQueueClient client = q.client();
        TaskInfo one = client.inspect("order-1");
        assertThat(one.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(one.score()).isEqualTo(at);
        assertThat(one.priority()).isEqualTo(1);
        assertThat(TaskRecord.decode(one.rawRecord()).payload()).isEqualTo("close it");
        assertThat(client.inspect("order-2").rawRecord()).as("no payload: the JSON form, as Java writes it").matches("\\{\"enqueuedAt\":\\d+}");

        assertThat(client.reschedule("order-1", Instant.ofEpochMilli(at + 5)).dueAt()).isEqualTo(at + 5);
        assertThat(producer.ok(op("inspect", "id", "order-1")).get("score").asLong()).isEqualTo(at + 5);
        assertThat(client.cancel("order-1")).isEqualTo(CancelResult.CANCELLED);
        assertThat(producer.ok(op("inspect", "id", "order-1")).get("state").asText()).isEqualTo("UNKNOWN");
        assertThat(producer.ok(op("cancel", "id", "order-1")).asText()).isEqualTo("UNKNOWN");

        JsonNode stats = producer.ok(op("stats"));
        assertThat(stats.get("scheduled").asLong()).isEqualTo(client.stats().scheduled()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void theProducerInspectsReschedulesAndCancelsWhatJavaWrote(Producer p) {
        String queue = "reads-java-" + p.name();
        TestQueue q = java(queue);
        DelayQueueClient client = q.client();
        long at = q.serverNow() + 3_600_000;
        client.enqueueAll(List.of(TaskSpec.of("coupon-C-9").at(Instant.ofEpochMilli(at)).payload("expire: C-9").priority(Priority.HIGHEST),
                TaskSpec.of("running").payload("in flight"), TaskSpec.of("dying").payload("will die")));
        ClaimedTask running = claim(q, "running");
        q.kill(claim(q, "dying"), "boom", DeadLetterPolicy.DEFAULT);
        ProducerProcess producer = producer(p, queue);

        JsonNode info = producer.ok(op("inspect", "id", "coupon-C-9"));
        TaskInfo javaInfo = client.inspect("coupon-C-9");
        assertThat(info.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(info.get("score").asLong()).isEqualTo(at);
        assertThat(info.get("priority").asInt()).isEqualTo(2);
        assertThat(info.get("shard").asInt()).isEqualTo(q.shardOf("coupon-C-9"));
        assertThat(info.get("rawRecord").asText()).isEqualTo(javaInfo.rawRecord());
        assertThat(info.get("payload").asText()).isEqualTo("expire: C-9");
        assertThat(info.get("enqueuedAt").asLong()).isEqualTo(TaskRecord.decode(javaInfo.rawRecord()).enqueuedAt());

        JsonNode moved = producer.ok(op("reschedule", "id", "coupon-C-9", "dueAt", at - 1000));
        assertThat(moved.get("status").asText()).isEqualTo("RESCHEDULED");
        assertThat(client.inspect("coupon-C-9").score()).isEqualTo(at - 1000);
        assertThat(producer.ok(op("reschedule", "id", "running", "delayMs", 10)).get("status").asText()).isEqualTo("IN_FLIGHT");
        assertThat(producer.ok(op("reschedule", "id", "dying", "delayMs", 10)).get("status").asText()).isEqualTo("DEAD");

        JsonNode inflight = producer.ok(op("inspect", "id", "running"));
        assertThat(inflight.get("state").asText()).isEqualTo("IN_FLIGHT");
        assertThat(inflight.get("score").asLong()).isEqualTo(running.token());
        assertThat(inflight.get("attempts").asInt()).isEqualTo(1);
        JsonNode dead = producer.ok(op("inspect", "id", "dying"));
        assertThat(dead.get("state").asText()).isEqualTo("DEAD");
        assertThat(dead.get("lastError").asText()).isEqualTo("boom");

        assertThat(producer.ok(op("cancel", "id", "running")).asText()).isEqualTo("IN_FLIGHT");
        assertThat(producer.ok(op("cancel", "id", "coupon-C-9")).asText()).isEqualTo("CANCELLED");
        assertThat(producer.ok(op("cancel", "id", "dying")).asText()).isEqualTo("CANCELLED");
        assertThat(client.inspect("coupon-C-9").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(client.inspect("dying").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(client.inspect("running").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        JsonNode stats = producer.ok(op("stats"));
        assertThat(stats.get("inflight").asLong()).isEqualTo(client.stats().inflight()).isEqualTo(1);
        assertThat(stats.get("dead").asLong()).isEqualTo(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void theProducerSeesATaskJavaAckedWithResultsKeptAsSucceededWithItsCompletion(Producer p) {
        String queue = "results-" + p.name();
        TestQueue q = java(queue);
        q.client().enqueue(TaskSpec.of("refund-7"));
        ClaimedTask t = claim(q, "refund-7");
        assertThat(TestQueue.sync(q.protocol().ack(t.shard(), List.of(t), java.util.Set.of(),
                new io.delayq.completion.ResultRetention(Duration.ofHours(1), 100), "worker-a1b2c3",
                List.of(new io.delayq.completion.Finished(35, io.delayq.completion.BoundedResult.of("refund r-91 | issued ✓")))))).containsExactly(true);
        io.delayq.completion.CompletionRecord kept = q.client().inspect("refund-7").completion();
        ProducerProcess producer = producer(p, queue);

        JsonNode info = producer.ok(op("inspect", "id", "refund-7"));
        assertThat(info.get("state").asText()).isEqualTo("SUCCEEDED");
        assertThat(info.get("score").asLong()).isEqualTo(kept.finishedAt().toEpochMilli());
        assertThat(info.get("attempts").asInt()).isEqualTo(1);
        JsonNode c = info.get("completion");
        assertThat(c.get("finishedAt").asLong()).isEqualTo(kept.finishedAt().toEpochMilli());
        assertThat(c.get("attempts").asInt()).isEqualTo(1);
        assertThat(c.get("handlerMs").asLong()).isEqualTo(35);
        assertThat(c.get("worker").asText()).isEqualTo("worker-a1b2c3");
        assertThat(c.get("result").asText()).isEqualTo("refund r-91 | issued ✓");
        assertThat(c.get("truncated").asBoolean()).isFalse();
        assertThat(producer.ok(op("inspect", "id", "never-seen")).get("completion").isNull()).isTrue();
    }

    /**
     * The same steps (enqueues under each policy, with claims and a death in between) on two queues, one
     * produced by the Java client, one by the library: every answer is the same, and so is every due time
     * relative to the first enqueue's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void duplicatePoliciesAnswerAsJavaDoes(Producer p) {
        TestQueue javaQueue = java("dups-java-" + p.name());
        TestQueue libQueue = java("dups-lib-" + p.name());
        ProducerProcess producer = producer(p, "dups-lib-" + p.name());
        long base = javaQueue.serverNow() + 3_600_000;
        record Step(String policy, String id, long offset) {
        }
        List<Object> steps = List.of(
                new Step("reject", "a", 0), new Step("reject", "a", 10), new Step("replace", "a", 20),
                new Step("keep-earlier", "a", 5), new Step("keep-earlier", "a", 50),
                new Step("reject", "b", -7_200_000), "claim b",
                new Step("replace", "b", 0), new Step("keep-earlier", "b", 0), new Step("reject", "b", 0),
                new Step("reject", "c", -7_200_000), "kill c",
                new Step("keep-earlier", "c", 0), new Step("reject", "c", 0), new Step("replace", "c", 30),
                new Step("keep-earlier", "c", 40));
        List<String> javaAnswers = new ArrayList<>();
        List<String> libAnswers = new ArrayList<>();
        for (Object step : steps) {
            if (step instanceof Step s) {
                EnqueueResult r = javaQueue.client().enqueue(TaskSpec.of(s.id()).at(Instant.ofEpochMilli(base + s.offset())).payload("p"),
                        DuplicatePolicy.valueOf(s.policy().toUpperCase().replace('-', '_')));
                javaAnswers.add(r.status() + "@" + when(javaQueue, s.id(), r.dueAt(), base));
                JsonNode lib = producer.ok(enqueue(s.policy(), List.of(task(s.id(), "dueAt", base + s.offset(), "payload", "p")))).get(0);
                libAnswers.add(lib.get("status").asText() + "@" + when(libQueue, s.id(), lib.get("dueAt").asLong(), base));
            } else {
                String[] action = ((String) step).split(" ");
                for (TestQueue q : List.of(javaQueue, libQueue)) {
                    ClaimedTask c = claim(q, action[1]);
                    if (action[0].equals("kill")) {
                        q.kill(c, "boom", DeadLetterPolicy.DEFAULT);
                    }
                }
            }
        }
        assertThat(libAnswers).isEqualTo(javaAnswers);
        // and the answers are the documented ones, not two clients agreeing on something else
        assertThat(javaAnswers).extracting(a -> a.substring(0, a.indexOf('@'))).containsExactly(
                "ADDED", "DUPLICATE", "REPLACED", "EARLIER", "KEPT", "ADDED", "INFLIGHT", "INFLIGHT", "DUPLICATE",
                "ADDED", "DEAD", "DUPLICATE", "REPLACED", "KEPT");
    }

    /**
     * An answer's time: the due time (relative to the steps' base) while the task is scheduled; otherwise the
     * lease expiry or time of death, which differ between the two queues and are only checked to be the task's.
     */
    private static String when(TestQueue q, String id, long answered, long base) {
        TaskInfo info = q.client().inspect(id);
        assertThat(answered).as("time answered for %s", id).isEqualTo(info.score());
        return info.state() == TaskInfo.State.SCHEDULED ? String.valueOf(answered - base) : info.state().name();
    }

    /** Claims the task from its shard (making it due first): a "kill" step claims, then dead-letters with the claim's token. */
    private static ClaimedTask claim(TestQueue q, String id) {
        String reclaimable = id;
        if (q.client().inspect(id).score() > q.serverNow()) {
            q.client().reschedule(id, Duration.ZERO);
        }
        var batch = q.claim(q.shardOf(reclaimable), 100, Duration.ofMinutes(5));
        return batch.tasks().stream().filter(t -> t.id().equals(reclaimable)).findFirst()
                .orElseThrow(() -> new AssertionError("claim of " + reclaimable + " got " + batch + "; " + q.client().inspect(reclaimable)));
    }

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_ID = "00f067aa0ba902b7";

    /** Per-task options written by the producer: the Java worker honours its attempts, backoff, expiry and trace context. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void theJavaWorkerHonoursTheProducersPerTaskOptions(Producer p) {
        String queue = "options-" + p.name();
        TestQueue q = java(queue);
        ProducerProcess producer = producer(p, queue);
        long now = q.serverNow();
        long expires = now + 400;
        JsonNode results = producer.ok(enqueue(
                task("notify-1", "payload", "fail", "maxAttempts", 2, "backoffMs", 10, "backoffMaxMs", 10),
                task("capture-1", "payload", "fail", "maxAttempts", 7, "backoffMs", 10, "backoffMaxMs", 10, "backoffMultiplier", 1),
                task("coupon-1", "dueAt", now + 200, "payload", "ok", "expiresAt", expires),
                task("traced-1", "payload", "ok", "traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-01", "tracestate", "k=v")));
        assertThat(results).allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> q.serverNow() > expires);

        InMemorySpanExporter spans = InMemorySpanExporter.create();
        OpenTelemetrySdk sdk = track(OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build());
        Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
        Map<String, String> env = new HashMap<>(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", queue,
                "DELAYQ_SHARDS", String.valueOf(SHARDS), "DELAYQ_HTTP_PORT", "0", "DELAYQ_POLL_INTERVAL", "100ms",
                "DELAYQ_RETRY_MAX_ATTEMPTS", "5", "DELAYQ_RETRY_BACKOFF_INITIAL", "50ms", "DELAYQ_RETRY_BACKOFF_MAX", "50ms",
                "DELAYQ_SHUTDOWN_GRACE", "2s"));
        track(Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery((Task t) -> {
            attempts.computeIfAbsent(t.id(), k -> new CopyOnWriteArrayList<>()).add(t.attempt());
            if ("fail".equals(t.payload())) {
                throw new IllegalStateException("declined");
            }
        }), System::currentTimeMillis, sdk));

        for (String id : List.of("notify-1", "capture-1", "coupon-1")) {
            await().atMost(Duration.ofSeconds(15)).until(() -> q.client().inspect(id).state() == TaskInfo.State.DEAD);
        }
        assertThat(attempts.get("notify-1")).containsExactly(1, 2);
        assertThat(attempts.get("capture-1")).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(attempts).doesNotContainKey("coupon-1");
        assertThat(q.client().inspect("coupon-1").lastError()).startsWith("expired: not started by its expiresAt");

        await().atMost(Duration.ofSeconds(15)).until(() -> attempts.containsKey("traced-1") && delivery(spans, "traced-1") != null);
        SpanData d = delivery(spans, "traced-1");
        assertThat(d.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(d.getParentSpanId()).isEqualTo(PARENT_ID);
        assertThat(d.getSpanContext().getTraceState().get("k")).isEqualTo("v");
    }

    private static SpanData delivery(InMemorySpanExporter spans, String id) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getKind() == SpanKind.CONSUMER
                && id.equals(s.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("messaging.message.id"))))
                .findFirst().orElse(null);
    }
}
