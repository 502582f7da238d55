package io.delayq.operator.it;

import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.ScheduleMisfirePolicy;
import io.delayq.operator.resource.ScheduleSpec;
import io.delayq.operator.resource.ScheduleStatusEntry;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.PlanRules;
import io.delayq.schedule.ScheduleStatus;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * spec.schedules through the real SDK operator (Fabric8's mock API server, CRUD mode) into a real
 * redis-server, and back into status. The mock runs no pods: the test plans and delivers the
 * occurrences itself with core's planner and the worker protocol, as the worker pods would.
 */
@EnableKubernetesMockClient(crud = true)
class ScheduleMockClusterTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    static io.fabric8.kubernetes.client.server.mock.KubernetesMockServer server;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private DelayQueueOperator operator;
    private String namespace;

    @BeforeAll
    static void installCrd() throws Exception {
        io.delayq.operator.testing.MockCluster.installCrd(client);
        io.delayq.operator.testing.MockCluster.serveDiscovery(server, true);
    }

    @BeforeEach
    void startOperator() {
        namespace = "sched" + NAMES.incrementAndGet();
        operator = io.delayq.operator.testing.MockCluster.startWatching(client, namespace);
    }

    @AfterEach
    void stopOperator() {
        operator.close();
    }

    private static ScheduleSpec schedule(String name, String cron, String zone) {
        ScheduleSpec s = new ScheduleSpec();
        s.setName(name);
        s.setCron(cron);
        s.setTimeZone(zone);
        return s;
    }

    private Optional<DelayQueueStatus> status(String name) {
        return Optional.ofNullable(client.resources(DelayQueue.class).inNamespace(namespace).withName(name).get()).map(DelayQueue::getStatus);
    }

    private Optional<ScheduleStatusEntry> entry(String dq, String schedule) {
        return status(dq).map(DelayQueueStatus::getSchedules).flatMap(l -> l == null ? Optional.empty()
                : l.stream().filter(e -> e.getName().equals(schedule)).findFirst());
    }

    @Test
    void declaredSchedulesReachRedisAndTheirFiringsShowInStatus() {
        DelayQueue dq = DelayQueues.of("books", 2, null, redis.url());
        ScheduleSpec tick = schedule("tick", "* * * * * *", "UTC");
        ScheduleSpec close = schedule("close-books", "5 0 * * *", "Asia/Shanghai");
        close.setPayload("{\"action\":\"close-day\"}");
        close.setMisfirePolicy(ScheduleMisfirePolicy.doNothing);
        dq.getSpec().setSchedules(new ArrayList<>(List.of(tick, close)));
        dq.getMetadata().setNamespace(namespace);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        client.resource(dq).create();

        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("books").shards(2).build()) {
            // a schedule added without Kubernetes: the operator leaves it alone
            io.delayq.schedule.Schedules.of(producer).put(CronSchedule.of("cli-made", "0 * * * *"));
            await().atMost(Duration.ofSeconds(30)).until(() -> entry("books", "close-books").map(ScheduleStatusEntry::getNextFireTime).isPresent());
            ScheduleStatus inRedis = io.delayq.schedule.Schedules.of(producer).get("close-books").orElseThrow();
            assertThat(inRedis.definition().timeZone()).isEqualTo("Asia/Shanghai");
            assertThat(inRedis.definition().payload()).isEqualTo("{\"action\":\"close-day\"}");
            assertThat(inRedis.definition().managedBy()).isEqualTo("operator");
            // 00:05 in Shanghai is 16:05 UTC
            assertThat(Instant.parse(entry("books", "close-books").orElseThrow().getNextFireTime()).toString()).endsWith("T16:05:00Z");
            assertThat(status("books").orElseThrow().getNextScheduleFire()).isNotNull();

            // the workers' part: plan, claim, ack
            var planner = io.delayq.schedule.Schedules.of(producer).planner(new PlanRules(Duration.ofSeconds(3), Duration.ofSeconds(30), 100));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                planner.turn();
                for (int s = 0; s < 2; s++) {
                    List<ClaimedTask> claimed = producer.protocol().claim(s, 100, Duration.ofMinutes(1), RateLimit.NONE)
                            .toCompletableFuture().get().tasks();
                    if (!claimed.isEmpty()) {
                        producer.protocol().ack(s, claimed).toCompletableFuture().get();
                    }
                }
                ScheduleStatusEntry e = entry("books", "tick").orElseThrow();
                assertThat(e.getLastFireTime()).isNotNull();
                assertThat(e.getLastTaskId()).startsWith("sched:tick:1:");
                assertThat(e.getLastOutcome()).isEqualTo("succeeded");
            });

            // a schedule dropped from the resource is removed from Redis; suspending one shows in status
            client.resources(DelayQueue.class).inNamespace(namespace).withName("books").edit(r -> {
                r.getSpec().getSchedules().removeIf(s -> s.getName().equals("tick"));
                r.getSpec().getSchedules().get(0).setSuspend(true);
                return r;
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> io.delayq.schedule.Schedules.of(producer).get("tick").isEmpty()
                    && entry("books", "close-books").map(ScheduleStatusEntry::getSuspended).orElse(false));
            assertThat(entry("books", "close-books").orElseThrow().getNextFireTime()).isNull();
            assertThat(entry("books", "tick")).isEmpty();
            assertThat(io.delayq.schedule.Schedules.of(producer).get("close-books").orElseThrow().definition().paused()).isTrue();
            assertThat(io.delayq.schedule.Schedules.of(producer).get("cli-made")).isPresent();
        }
    }

    @Test
    void aScheduleTheCoreRejectsIsDegradedNamingIt() {
        DelayQueue dq = DelayQueues.of("books", 2, null, redis.url());
        // passes the schema's shape check, not cron-utils: minute 61
        dq.getSpec().setSchedules(new ArrayList<>(List.of(schedule("bad", "61 * * * *", "UTC"), schedule("good", "0 * * * *", "UTC"))));
        dq.getMetadata().setNamespace(namespace);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        client.resource(dq).create();
        await().atMost(Duration.ofSeconds(30)).until(() -> status("books").map(s -> s.getConditions().stream()
                .anyMatch(c -> c.getType().equals("Degraded") && c.getStatus().equals("True")
                        && c.getMessage().contains("spec.schedules[bad].cron"))).orElse(false));
        await().atMost(Duration.ofSeconds(10)).until(() -> entry("books", "good").isPresent());
        assertThat(entry("books", "bad")).isEmpty();
    }
}
