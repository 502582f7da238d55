package io.delayq.client;

import io.delayq.InvalidInputException;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code replicaAcks(n, timeout)}: an enqueue returns only once n replicas hold it (WAIT on the
 * connection that wrote), and says so loudly when they do not. A real primary and a real replica
 * ({@code --replicaof}); the replica is frozen with SIGSTOP to make it miss the deadline.
 */
class ReplicaAckTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final String QUEUE = "acks";
    private static LocalRedisServer primary;
    private static LocalRedisServer replica;
    private static RedisEndpoint onPrimary;
    private static RedisEndpoint onReplica;

    @BeforeAll
    static void startPrimaryAndReplica() {
        primary = LocalRedisServer.start();
        replica = LocalRedisServer.start("--replicaof", "127.0.0.1", String.valueOf(primary.port()));
        onPrimary = RedisEndpoint.connect(primary.url());
        onReplica = RedisEndpoint.connect(replica.url());
    }

    @BeforeEach
    void replicaInSyncAndEmpty() throws Exception {
        replica.resume();
        onPrimary.commands().flushall().get();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            String info = onReplica.commands().info("replication").get();
            return info.contains("master_link_status:up") && onReplica.commands().dbsize().get() == 0;
        });
    }

    @AfterAll
    static void stop() {
        if (replica != null) {
            replica.resume();
        }
        for (AutoCloseable c : new AutoCloseable[]{onPrimary, onReplica, replica, primary}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Test
    void anEnqueueReturnsOnlyOnceTheReplicaHoldsIt() throws Exception {
        try (DelayQueueClient client = builder().replicaAcks(1, Duration.ofSeconds(2)).build()) {
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                tasks.add(TaskSpec.of("order-" + i).after(Duration.ofMinutes(5)).payload("p" + i));
            }
            List<EnqueueResult> results = client.enqueueAll(tasks);
            assertThat(results).allMatch(EnqueueResult::added);
            // read from the replica at once, no waiting: WAIT already confirmed it holds every task
            TestQueue replicated = TestQueue.reading(client, onReplica);
            Map<String, Long> waiting = replicated.waiting();
            for (TaskSpec t : tasks) {
                assertThat(waiting).as(t.id()).containsKey(t.id());
                assertThat(replicated.storedRecord(t.id())).as(t.id()).endsWith(":" + t.payload());
            }
        }
    }

    @Test
    void aReplicaThatDoesNotConfirmInTimeFailsTheEnqueueWithAClearErrorAndARetryIsSafe() throws Exception {
        try (DelayQueueClient client = builder().replicaAcks(1, Duration.ofMillis(300)).build()) {
            replica.pause(); // SIGSTOP: connected, silent
            assertThatThrownBy(() -> client.enqueue(TaskSpec.of("order-1").after(Duration.ofMinutes(5))))
                    .isInstanceOfSatisfying(ReplicaAckException.class, e -> {
                        assertThat(e.required()).isEqualTo(1);
                        assertThat(e.acknowledged()).isZero();
                        assertThat(e.results()).extracting(EnqueueResult::status).containsExactly(EnqueueResult.Status.ADDED);
                    })
                    .hasMessageContaining("reached the primary, but only 0 of the 1 required replica(s) acknowledged it within 300 ms")
                    .hasMessageContaining("retrying is safe");
            // a ReplicaAckException (not the client's 5 s command time-out) is what shows that WAIT gave up at its own 300 ms

            replica.resume();
            // the retry writes nothing new (duplicate id) and waits until the replica caught up with the first write
            EnqueueResult retried = client.enqueue(TaskSpec.of("order-1").after(Duration.ofMinutes(5)));
            assertThat(retried.status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(TestQueue.reading(client, onReplica).waiting()).containsKey("order-1");
        }
    }

    @Test
    void askingForMoreReplicasThanExistFailsWithTheCountThatAnswered() {
        try (DelayQueueClient client = builder().replicaAcks(2, Duration.ofMillis(200)).build()) {
            assertThatThrownBy(() -> client.enqueue(TaskSpec.of("order-2")))
                    .isInstanceOfSatisfying(ReplicaAckException.class, e -> assertThat(e.acknowledged()).isEqualTo(1))
                    .hasMessageContaining("only 1 of the 2 required replica(s)");
        }
    }

    @Test
    void withoutReplicaAcksAnEnqueueDoesNotWaitForReplicas() throws Exception {
        try (DelayQueueClient client = builder().build()) {
            replica.pause();
            // Redis's default: the primary's answer is the acknowledgement, whatever the replicas do
            assertThat(client.enqueue(TaskSpec.of("order-3")).added()).isTrue();
        }
    }

    @Test
    void invalidSettingsAreRejectedNamingTheField() {
        assertThatThrownBy(() -> builder().replicaAcks(0, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("replicaAcks.replicas").hasMessageContaining("between 1 and 100");
        assertThatThrownBy(() -> builder().replicaAcks(1, Duration.ZERO))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("replicaAcks.timeout").hasMessageContaining("WAIT 0");
        assertThatThrownBy(() -> builder().timeout(Duration.ofSeconds(2)).replicaAcks(1, Duration.ofSeconds(2)).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("replicaAcks.timeout")
                .hasMessageContaining("shorter than the client's timeout");
    }

    private static DelayQueueClient.Builder builder() {
        return DelayQueueClient.builder().redis(primary.url()).queue(QUEUE).shards(8).timeout(Duration.ofSeconds(5));
    }
}
