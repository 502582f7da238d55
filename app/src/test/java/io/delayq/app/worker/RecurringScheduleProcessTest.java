package io.delayq.app.worker;

import io.delayq.worker.fleet.Fleet;
import io.delayq.client.DelayQueueClient;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.CronTimes;
import io.delayq.schedule.OccurrenceId;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A schedule firing every second for 20 s, three worker JVMs planning and delivering it to a real
 * webhook; one is killed with SIGKILL in the middle and a new one started. Every occurrence is
 * delivered, none before its instant, and an occurrence delivered twice carries a higher attempt
 * (a lease that died with its worker), never two first attempts.
 */
class RecurringScheduleProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void everySecondForTwentySecondsThroughAKillNineEachOccurrenceFiresOnce() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver(20);
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("ticks").shards(4).build()) {
            Map<String, String> env = receiver.workerEnv(redis.url(), "ticks", 4);
            env.put("DELAYQ_LEASE", "2s");
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            env.put("DELAYQ_SCHEDULE_INTERVAL", "500ms");
            env.put("DELAYQ_SCHEDULE_HORIZON", "3s");
            Instant start = Instant.ofEpochMilli(System.currentTimeMillis()).truncatedTo(ChronoUnit.SECONDS).plusSeconds(4);
            Instant end = start.plusSeconds(20);
            List<Long> expected = CronTimes.of("* * * * * *", "UTC").between(start.minusMillis(1), end, 1000).stream()
                    .map(Instant::toEpochMilli).toList();
            assertThat(expected).hasSize(21);
            io.delayq.schedule.Schedules.of(client).put(CronSchedule.of("tick", "* * * * * *").payload("{\"tick\":1}").window(start, end));
            try (WorkerProcess a = WorkerProcess.start(env); WorkerProcess victim = WorkerProcess.start(env);
                 WorkerProcess b = WorkerProcess.start(env)) {
                await().atMost(Duration.ofSeconds(40)).until(() -> receiver.countById.size() >= 8);
                victim.kill9();
                await().atMost(Duration.ofSeconds(40)).until(() -> receiver.countById.size() >= 12);
                try (WorkerProcess restarted = WorkerProcess.start(env)) {
                    // asserted, so that a time-out names the occurrences still missing and what the queue holds
                    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                        var s = client.stats();
                        List<Long> missing = expected.stream().filter(at -> receiver.countById.keySet().stream()
                                .noneMatch(id -> OccurrenceId.parse(id).orElseThrow().epochMillis() == at)).toList();
                        assertThat(missing).as("occurrences not delivered (in flight %d, due %d, scheduled %d, dead %d)",
                                s.inflight(), s.due(), s.scheduled(), s.dead()).isEmpty();
                        assertThat(s.inflight() + s.due() + s.scheduled()).as("tasks left in the queue").isZero();
                    });
                    assertThat(restarted.isAlive()).isTrue();
                }
                assertThat(a.terminate()).isZero();
                assertThat(b.terminate()).isZero();
            }
            Map<String, List<Fleet.Delivered>> byId = receiver.deliveries.stream().collect(Collectors.groupingBy(Fleet.Delivered::id));
            assertThat(byId.keySet().stream().map(id -> OccurrenceId.parse(id).orElseThrow().epochMillis()).sorted().toList())
                    .as("one task per occurrence, each occurrence once").isEqualTo(expected);
            for (List<Fleet.Delivered> ds : byId.values()) {
                assertThat(ds.stream().map(Fleet.Delivered::attempt).toList()).doesNotHaveDuplicates();
                for (Fleet.Delivered d : ds) {
                    long at = OccurrenceId.parse(d.id()).orElseThrow().epochMillis();
                    if (d.attempt() == 1) {
                        assertThat(d.dueAt()).isEqualTo(at); // a re-delivery is due again when its lease was reclaimed
                    }
                    assertThat(d.handledAtMillis()).as("%s handled before its instant", d.id()).isGreaterThanOrEqualTo(at);
                    assertThat(d.payload()).isEqualTo("{\"tick\":1}");
                }
            }
            long twice = byId.values().stream().filter(ds -> ds.size() > 1).count();
            System.out.printf("schedule through kill -9: %d occurrences, %d deliveries, %d re-delivered (attempt > 1)%n",
                    expected.size(), receiver.deliveries.size(), twice);
        }
    }
}
