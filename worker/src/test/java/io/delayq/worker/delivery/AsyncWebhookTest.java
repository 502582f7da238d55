package io.delayq.worker.delivery;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The webhook delivery without a thread per request, against a real HTTP server: requests in flight are bounded by
 * DELAYQ_CONCURRENCY, not by threads; outcomes, signatures, the handler deadline and a graceful stop work on the
 * requests' completions; a receiver that drops connections loses nothing.
 */
class AsyncWebhookTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "async-hooks";
    private static final String SECRET = "whsec-async";
    @RegisterExtension
    @Order(1) // closed after the workers: extensions close in reverse order
    final Receivers receivers = new Receivers(redis, Q, 2, Duration.ofSeconds(10));
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    @Order(2)
    final RunningWorkers workers = RunningWorkers.on(queue);

    private Receiver receiver(Receiver.Behaviour b) {
        return receivers.start(b);
    }

    private Map<String, String> env(Receiver r) {
        return receivers.env(r);
    }

    /**
     * A worker on the asynchronous path whatever the machine (a worker picks it by itself only where the JDK client's
     * common pool has more than one thread, see {@link WebhookDelivery#runsAsync}).
     */
    private Worker start(Map<String, String> env) {
        io.delayq.worker.config.WorkerConfig c = io.delayq.worker.config.WorkerConfig.fromEnv(env);
        return workers.start(env, redis -> new WebhookDelivery(c.webhookUrl(), c.webhookTimeout(), c.webhookSecret(), false, true));
    }

    private TaskInfo.State state(String id) {
        return queue.client().inspect(id).state();
    }

    private List<String> enqueue(String prefix, int n) {
        List<TaskSpec> specs = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(prefix + i);
            specs.add(TaskSpec.of(prefix + i).payload(prefix));
        }
        queue.client().enqueueAll(specs);
        return ids;
    }

    private static long handlerThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith("delayq-handler-")).count();
    }

    @Test
    void twoHundredRequestsAreInFlightAtOnceOnAHandfulOfThreads() {
        int n = 200;
        // the receiver answers none until all 200 are inside it at once: only a worker that does not hold a thread per
        // request gets there with fewer threads than requests
        CountDownLatch allInside = new CountDownLatch(n);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        Receiver r = receiver((req, ex) -> {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            allInside.countDown();
            allInside.await(30, TimeUnit.SECONDS);
            inside.decrementAndGet();
            Receiver.reply(ex, 200, "ok");
        });
        Map<String, String> env = env(r);
        // room to spare: a worker whose free slots fall below a refill threshold claims no more until some free up
        env.put("DELAYQ_CONCURRENCY", String.valueOf(2 * n));
        env.put("DELAYQ_WEBHOOK_TIMEOUT", "30s");
        Worker w = start(env);
        List<String> ids = enqueue("wide-", n);

        await().atMost(Duration.ofSeconds(20)).until(() -> allInside.getCount() == 0);
        long threads = handlerThreads();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(n));

        assertThat(mostInside.get()).isEqualTo(n);
        // the handler threads only start requests: one per core (at least 2), not one per request in flight; and
        // the pool's ramp thread
        assertThat(threads).isLessThanOrEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()) + 1);
        for (String id : ids) {
            assertThat(state(id)).as(id).isEqualTo(TaskInfo.State.UNKNOWN);
        }
        assertThat(r.requests()).hasSize(n);
    }

    @Test
    void theConcurrencyBoundsTheRequestsInFlight() {
        int concurrency = 5;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        Receiver r = receiver((req, ex) -> {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            // a slow receiver: the worker's claim buffer fills, and its tasks must wait in the worker
            Thread.sleep(30);
            inside.decrementAndGet();
            Receiver.reply(ex, 200, "ok");
        });
        Map<String, String> env = env(r);
        env.put("DELAYQ_CONCURRENCY", String.valueOf(concurrency));
        Worker w = start(env);
        enqueue("bounded-", 100);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(100));
        assertThat(mostInside.get()).isEqualTo(concurrency);
        assertThat(r.requests()).hasSize(100);
    }

    @Test
    void statusesDecideAckRetryAndDeadLetterAndEveryRequestIsSigned() {
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        Receiver r = receiver((req, ex) -> {
            long now = System.currentTimeMillis() / 1000;
            if (!WebhookSignature.verify(SECRET, req.header(WebhookSignature.TIMESTAMP_HEADER), req.header(WebhookSignature.SIGNATURE_HEADER),
                    req.body(), now, 300)) {
                Receiver.reply(ex, 401, "bad signature");
                return;
            }
            String kind = req.json().path("payload").asText();
            switch (kind) {
                case "gone-" -> Receiver.reply(ex, 404, "no such order");
                case "busy-" -> Receiver.reply(ex, failedOnce.add(req.id()) ? 429 : 200, "busy", "Retry-After", "0");
                case "down-" -> Receiver.reply(ex, failedOnce.add(req.id()) ? 503 : 200, "down");
                default -> Receiver.reply(ex, 200, "ok");
            }
        });
        Map<String, String> env = env(r);
        env.put("DELAYQ_WEBHOOK_SECRET", SECRET);
        env.put("DELAYQ_CONCURRENCY", "50");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "100ms");
        env.put("DELAYQ_RETRY_BACKOFF_MAX", "100ms");
        Worker w = start(env);
        List<String> ok = enqueue("ok-", 40);
        List<String> gone = enqueue("gone-", 10);
        List<String> busy = enqueue("busy-", 10);
        List<String> down = enqueue("down-", 10);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(outcomes(w, "acked")).isEqualTo(60);
            assertThat(outcomes(w, "dead")).isEqualTo(10);
        });
        assertThat(outcomes(w, "retried")).isEqualTo(20);
        for (String id : gone) {
            TaskInfo dead = queue.client().inspect(id);
            assertThat(dead.state()).as(id).isEqualTo(TaskInfo.State.DEAD);
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.lastError()).isEqualTo("webhook answered HTTP 404: no such order");
        }
        for (String id : ok) {
            assertThat(r.requestsFor(id)).extracting(Receiver.Request::attempt).containsExactly(1);
        }
        List<String> retried = new ArrayList<>(busy);
        retried.addAll(down);
        for (String id : retried) {
            assertThat(state(id)).as(id).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(r.requestsFor(id)).extracting(Receiver.Request::attempt).containsExactly(1, 2);
        }
        // no request failed its signature check (it would have been dead-lettered with HTTP 401)
        assertThat(r.requests()).allSatisfy(req -> assertThat(req.header(WebhookSignature.SIGNATURE_HEADER)).startsWith("v1="));
    }

    @Test
    void theHandlerDeadlineCancelsAHangingRequestFreesItsSlotAndRetriesWithTheNextAttempt() {
        Receiver r = receiver((req, ex) -> {
            if (req.id().equals("hang-0") && req.attempt() == 1) {
                req.hang();
                return;
            }
            Receiver.reply(ex, 200, "ok");
        });
        Map<String, String> env = env(r);
        // one request in flight at a time: the others can go out only once the hanging one gave its slot back
        env.put("DELAYQ_CONCURRENCY", "1");
        env.put("DELAYQ_HANDLER_TIMEOUT", "300ms");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "100ms");
        Worker w = start(env);
        enqueue("hang-", 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> !r.requestsFor("hang-0").isEmpty());
        List<String> others = enqueue("after-", 5);

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(state("hang-0")).isEqualTo(TaskInfo.State.UNKNOWN);
            for (String id : others) {
                assertThat(state(id)).as(id).isEqualTo(TaskInfo.State.UNKNOWN);
            }
        });
        assertThat(r.requestsFor("hang-0")).extracting(Receiver.Request::attempt).containsExactly(1, 2);
        assertThat(r.requestsFor("hang-0").get(1).json().path("attempt").asInt()).isEqualTo(2);
        assertThat(outcomes(w, "retried")).isEqualTo(1);
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(6));
    }

    @Test
    void aGracefulStopWaitsForTheRequestsInFlightAndAcksThem() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger inside = new AtomicInteger();
        Receiver r = receiver((req, ex) -> {
            inside.incrementAndGet();
            release.await(30, TimeUnit.SECONDS);
            Receiver.reply(ex, 200, "ok");
        });
        Map<String, String> env = env(r);
        env.put("DELAYQ_CONCURRENCY", "8");
        env.put("DELAYQ_BATCH_SIZE", "4");
        Worker w = start(env);
        enqueue("stop-", 40);
        await().atMost(Duration.ofSeconds(10)).until(() -> inside.get() == 8);

        boolean[] clean = new boolean[1];
        Thread stopper = new Thread(() -> clean[0] = w.shutdown(Duration.ofSeconds(20)));
        stopper.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> !w.ready());
        // the stop waits for the 8 requests the receiver holds
        assertThat(stopper.isAlive()).isTrue();
        release.countDown();
        stopper.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(stopper.isAlive()).isFalse();
        assertThat(clean[0]).isTrue();

        List<Receiver.Request> delivered = r.requests();
        assertThat(delivered).hasSizeGreaterThanOrEqualTo(8);
        for (Receiver.Request req : delivered) {
            assertThat(state(req.id())).as(req.id()).isEqualTo(TaskInfo.State.UNKNOWN);
        }
        var stats = queue.client().stats();
        assertThat(stats.inflight()).isZero();
        assertThat(stats.due()).isEqualTo(40 - delivered.size());
    }

    @Test
    void aReceiverThatDropsConnectionsLosesNothing() {
        Set<String> dropped = ConcurrentHashMap.newKeySet();
        Receiver r = receiver((req, ex) -> {
            // every third task's first attempt: the connection is closed without an answer
            int n = Integer.parseInt(req.id().substring("drop-".length()));
            if (n % 3 == 0 && req.attempt() == 1) {
                dropped.add(req.id());
                ex.close();
                return;
            }
            Receiver.reply(ex, 200, "ok");
        });
        Map<String, String> env = env(r);
        env.put("DELAYQ_CONCURRENCY", "20");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "100ms");
        env.put("DELAYQ_RETRY_BACKOFF_MAX", "100ms");
        Worker w = start(env);
        List<String> ids = enqueue("drop-", 90);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(90));
        assertThat(dropped).hasSize(30);
        assertThat(outcomes(w, "retried")).isEqualTo(30);
        assertThat(outcomes(w, "dead")).isZero();
        for (String id : ids) {
            assertThat(state(id)).as(id).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(r.requestsFor(id)).as(id).isNotEmpty();
        }
        for (String id : dropped) {
            assertThat(r.requestsFor(id)).as(id).extracting(Receiver.Request::attempt).containsExactly(1, 2);
        }
        var stats = queue.client().stats();
        assertThat(stats.inflight() + stats.due() + stats.dead()).isZero();
    }
}
