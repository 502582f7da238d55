package io.delayq.worker.dispatch;

import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A key of the wrong type that makes a whole shard unusable (a producer's SET over the due set, a hash
 * where the in-flight set belongs, ...): the worker keeps serving its other shard, reports the faulty one
 * once per interval (not at every poll) naming the key, in the log and in {@code delayq_shard_faulty},
 * stays ready, loses none of the shard's tasks, and claims them once the key is fixed.
 */
class ShardFaultTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "faulty";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final LogCapture log = new LogCapture();

    /** name, the corruption of shard 0 (given its keys), the key the report must name, what it is, what it must be. */
    static Stream<Arguments> corruptions() {
        return Stream.of(
                Arguments.of("due is a string", (BiConsumer<TestQueue, ShardKeys>) (q, k) -> get(q.redis().set(k.due(0), "oops")), "due", "string", "zset"),
                Arguments.of("due:p1 is a hash", (BiConsumer<TestQueue, ShardKeys>) (q, k) -> get(q.redis().hset(k.due(1), "a", "b")), "due:p1", "hash", "zset"),
                Arguments.of("inflight is a hash", (BiConsumer<TestQueue, ShardKeys>) (q, k) -> get(q.redis().hset(k.inflight(), "a", "b")), "inflight", "hash", "zset"),
                Arguments.of("attempts is a string", (BiConsumer<TestQueue, ShardKeys>) (q, k) -> get(q.redis().set(k.attempts(), "3")), "attempts", "string", "hash"),
                Arguments.of("dead is a list, with a malformed task to dead-letter",
                        (BiConsumer<TestQueue, ShardKeys>) (q, k) -> {
                            get(q.redis().rpush(k.dead(), "x"));
                            get(q.redis().zadd(k.due(0), 1764460000, "in-seconds"));
                        }, "dead", "list", "zset"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void theOtherShardIsServedAndTheFaultyOneReportedOncePerIntervalThenRecovered(String name, BiConsumer<TestQueue, ShardKeys> corrupt,
                                                                                 String suffix, String is, String mustBe) {
        ShardKeys k0 = queue.keys(0);
        String onFaulty = idOnShard(0, "stays");
        String onHealthy = idOnShard(1, "flows");
        // the task of the faulty shard waits in a set the corruption leaves alone
        queue.client().enqueue(TaskSpec.of(onFaulty).payload("kept").priority(suffix.equals("due:p1") ? 2 : 1));
        corrupt.accept(queue, k0);
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), t -> handled.add(t.id()));

        queue.client().enqueue(TaskSpec.of(onHealthy).payload("p"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(handled).contains(onHealthy));
        String report = "shard 0 of queue '" + Q + "' cannot be claimed: ";
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(log.lines(report)).hasSize(1));
        // the poll interval is 200 ms: 2 s are ten polls of the faulty shard, still one report
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> log.lines(report).size() == 1);
        assertThat(log.lines(report).get(0)).contains(k0.due(0).replace(":due", ":" + suffix) + " is a " + is + ", not a " + mustBe);
        assertThat(faulty(w, 0)).isEqualTo(1);
        assertThat(faulty(w, 1)).isZero();
        assertThat(w.ready()).as("one faulty shard is not a Redis outage").isTrue();
        assertThat(log.lines("Redis lost")).isEmpty();
        assertThat(handled).doesNotContain(onFaulty);
        // kept where it was (read directly: inspect itself needs the shard's keys to have their types)
        String level = suffix.equals("due:p1") ? k0.due(2) : k0.due(1);
        assertThat(get(queue.redis().zscore(level, onFaulty))).as("the faulty shard's task is kept").isNotNull();
        if (!suffix.equals("inflight")) {
            assertThat(get(queue.redis().zscore(k0.inflight(), onFaulty))).as("not moved in flight").isNull();
        }

        get(queue.redis().del(k0.due(0).replace(":due", ":" + suffix)));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(handled).contains(onFaulty);
            assertThat(faulty(w, 0)).isZero();
            assertThat(log.lines("shard 0 of queue '" + Q + "' can be claimed again")).hasSize(1);
        });
    }

    private String idOnShard(int shard, String prefix) {
        for (int i = 0; ; i++) {
            if (queue.shardOf(prefix + "-" + i) == shard) {
                return prefix + "-" + i;
            }
        }
    }

    private static double faulty(Worker w, int shard) {
        Gauge g = w.registry().find("delayq.shard.faulty").tag("shard", String.valueOf(shard)).gauge();
        return g == null ? -1 : g.value();
    }
}
