package io.delayq.operator.it;

import io.delayq.client.DelayQueueClient;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.status.Resharding;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.MockCluster;
import io.delayq.operator.testing.QueueContents;
import io.delayq.reshard.LoadHarness;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Growing a queue by editing spec.shards: the real SDK operator against Fabric8's mock API server (CRUD mode)
 * and a real redis-server, the operator's mover job doing the move. The mock runs no pods: the load harness's
 * claimer stands in for the workers (it serves every shard of the layout the meta hash records), its producer,
 * canceller and rescheduler for the applications. The mover's batches are small (10 entries) so that the
 * migration lasts long enough to be seen half-way. The CEL rule on spec.shards is not evaluated by the mock:
 * {@code CrdValidationTest} and {@code K3sEndToEndTest} cover it.
 */
@EnableKubernetesMockClient(crud = true)
class ReshardMockClusterTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private DelayQueueOperator operator;
    private String namespace;

    @BeforeAll
    static void installCrd() throws Exception {
        MockCluster.installCrd(client);
        MockCluster.serveDiscovery(server, true);
    }

    @BeforeEach
    void startOperator() {
        namespace = "grow" + NAMES.incrementAndGet();
        operator = DelayQueueOperator.start(client, MockCluster.settings(namespace).withReshardBatch(10), false);
    }

    @AfterEach
    void stopOperator() {
        operator.close();
    }

    @Test
    void growsFourToSixteenUnderLoadWithNewDeploymentsFirstAndTheOldRetiredAtTheEnd() throws Exception {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             LoadHarness load = new LoadHarness(producer, claimer, "order-")) {
            // waiting tasks the migration moves: some come due while it runs, some wait on after it
            load.preload(10_000, 8_000, 20_000);
            load.preload(10_000, 3_600_000, 3_700_000);
            create(DelayQueues.of("orders", 4, 4, redis.url()));
            await().atMost(Duration.ofSeconds(30)).until(() -> status("orders").map(DelayQueueStatus::getBacklog).isPresent());
            assertThat(shardsByDeployment()).containsExactly(Map.entry("orders-worker-0-3", "4"));
            load.start();

            edit("orders", dq -> dq.getSpec().setShards(16));

            // Half-way: the new layout's Deployments run beside the old one, which keeps its 4 shards.
            await("new-layout Deployments while the move runs").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> shardsByDeployment().equals(Map.of("orders-worker-0-3", "4", "orders-worker-4-7", "16",
                            "orders-worker-8-11", "16", "orders-worker-12-15", "16")) && migrationInRedis());
            await("status shows the move").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> status("orders")
                    .filter(s -> "Resharding".equals(s.getPhase()) && s.getResharding() != null && s.getResharding().getTo() == 16
                            && s.getResharding().getMoved() > 0).isPresent());
            assertThat(condition("orders", Resharding.CONDITION)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo(Resharding.MOVING);
                assertThat(c.getMessage()).contains("growing from 4 to 16 shards");
            });

            await("the migration finishes").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> status("orders").map(s -> s.getResharding() != null && s.getResharding().isFinished()).orElse(false));
            await("the old layout's Deployment rolls to the new count").atMost(Duration.ofSeconds(20)).until(() -> shardsByDeployment()
                    .equals(Map.of("orders-worker-0-3", "16", "orders-worker-4-7", "16", "orders-worker-8-11", "16", "orders-worker-12-15", "16")));
            DelayQueueStatus done = status("orders").orElseThrow();
            assertThat(done.getPhase()).isNotEqualTo("Resharding");
            assertThat(done.getResharding().getFrom()).isEqualTo(4);
            assertThat(done.getResharding().getMoved()).isPositive();
            assertThat(done.getResharding().getLeft()).isZero();
            assertThat(done.getResharding().getProgress()).startsWith("4->16 done");
            assertThat(done.getWorkerDeployments()).extracting(w -> w.getShards()).containsOnly(16);
            assertThat(condition("orders", Resharding.CONDITION)).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo(Resharding.FINISHED);
            });
            assertThat(eventReasons()).contains("ReshardStarted", "ReshardFinished").doesNotContain("ReshardRefused");

            load.stopProducing();
            await("every task added and not cancelled is delivered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> load.missing().stream().noneMatch(id -> load.notBefore.get(id) < System.currentTimeMillis() + 600_000));
            System.out.println("operator grow 4 -> 16: " + load.summary() + "; " + done.getResharding().getProgress());
            assertThat(load.violations).as(load.summary()).isEmpty();
            assertThat(load.cancels.get()).isPositive();
            assertThat(load.reschedules.get()).isPositive();
            Map<String, List<Integer>> where = QueueContents.waiting(redis.admin(), "orders", 16);
            assertThat(where.keySet()).as("exactly the tasks not yet due wait, none else").isEqualTo(new java.util.HashSet<>(load.missing()));
            assertThat(QueueContents.misplaced(where, 16)).as("each once, on its shard of 16 (none left on its shard of 4)").isEmpty();
        }
    }

    @Test
    void aSecondChangeWhileOneRunsIsRefusedAndProceedsAfterTheFirstFinishes() throws Exception {
        int tasks = 20_000;
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("refunds").shards(4).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.url()).queue("refunds").shards(4).build();
             LoadHarness load = new LoadHarness(producer, claimer, "refund-")) {
            // due in an hour: nothing is claimed, so every id must end on its shard of the last layout
            load.preload(tasks, 3_600_000, 3_700_000);
        }
        create(DelayQueues.of("refunds", 4, 4, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> status("refunds").map(DelayQueueStatus::getBacklog).isPresent());

        edit("refunds", dq -> dq.getSpec().setShards(16));
        await("the first migration runs").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> migrationInRedis("refunds") && condition("refunds", Resharding.CONDITION).map(c -> "True".equals(c.getStatus())).orElse(false));
        edit("refunds", dq -> dq.getSpec().setShards(32));

        await("the second change is refused").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> condition("refunds", Resharding.CONDITION).map(c -> Resharding.SECOND_CHANGE_REFUSED.equals(c.getReason())).orElse(false));
        Condition refused = condition("refunds", Resharding.CONDITION).orElseThrow();
        assertThat(refused.getStatus()).isEqualTo("True");
        assertThat(refused.getMessage()).startsWith("spec.shards: a migration from 4 to 16 shards is running; the change to 32 waits until it has finished");
        assertThat(status("refunds").orElseThrow().getResharding().getTo()).as("the running one goes on").isEqualTo(16);
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(e -> "ReshardRefused".equals(e.getReason())
                && "Warning".equals(e.getType()) && e.getMessage().contains("the change to 32 waits")));

        await("the second migration runs after the first").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> status("refunds").map(s -> s.getResharding() != null && s.getResharding().getFrom() == 16
                        && s.getResharding().getTo() == 32 && s.getResharding().isFinished()).orElse(false));
        Map<String, String> last = new TreeMap<>();
        for (int from = 0; from < 32; from += 4) {
            last.put("refunds-worker-" + from + "-" + (from + 3), "32");
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> shardsByDeployment("refunds").equals(last));
        assertThat(eventReasons().stream().filter("ReshardFinished"::equals)).as("4 -> 16, then 16 -> 32").hasSize(2);
        assertThat(condition("refunds", Resharding.CONDITION).orElseThrow().getReason()).isEqualTo(Resharding.FINISHED);

        Map<String, List<Integer>> where = QueueContents.waiting(redis.admin(), "refunds", 32);
        assertThat(where).as("0 lost").hasSize(tasks);
        assertThat(QueueContents.misplaced(where, 32)).as("each once, on its shard of 32").isEmpty();
        assertThat(redis.admin().commands().hget(ShardKeys.meta("refunds"), "layouts").get(5, TimeUnit.SECONDS)).isEqualTo("4,16,32");
    }

    private boolean migrationInRedis() throws Exception {
        return migrationInRedis("orders");
    }

    private boolean migrationInRedis(String queue) throws Exception {
        return redis.admin().commands().hget(ShardKeys.meta(queue), "migration").get(5, TimeUnit.SECONDS) != null;
    }

    private void create(DelayQueue dq) {
        dq.getMetadata().setNamespace(namespace);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        client.resource(dq).create();
    }

    private void edit(String name, java.util.function.Consumer<DelayQueue> change) {
        io.delayq.operator.testing.SpecEdits.edit(client, namespace, name, change);
    }

    private Optional<DelayQueueStatus> status(String name) {
        return Optional.ofNullable(client.resources(DelayQueue.class).inNamespace(namespace).withName(name).get()).map(DelayQueue::getStatus);
    }

    private Optional<Condition> condition(String name, String type) {
        return status(name).flatMap(s -> s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst());
    }

    private Map<String, String> shardsByDeployment() {
        return shardsByDeployment("orders");
    }

    private Map<String, String> shardsByDeployment(String name) {
        return MockCluster.shardsByDeployment(client, namespace, name);
    }

    private List<Event> events() {
        return client.v1().events().inNamespace(namespace).list().getItems();
    }

    private List<String> eventReasons() {
        return events().stream().map(Event::getReason).toList();
    }
}
