package io.delayq.worker.fleet;

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
 * A schedule every second for 15 s with two workers, and Redis killed (SIGKILL) and started again
 * from its append-only file in the middle: the schedule, its planner state and the planned
 * occurrences survive, every occurrence is delivered (late, for those due while Redis was down),
 * none before its instant, and none twice on a first attempt.
 */
class RecurringScheduleRedisRestartTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension("--appendonly", "yes", "--appendfsync", "always");

    @Test
    void everyOccurrenceFiresOnceThroughARedisRestart() {
        try (Fleet fleet = new Fleet();
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("restart").shards(4).build()) {
            Map<String, String> env = Fleet.env(redis.url(), "restart", 4);
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            env.put("DELAYQ_LEASE", "2s");
            env.put("DELAYQ_SCHEDULE_INTERVAL", "300ms");
            env.put("DELAYQ_SCHEDULE_HORIZON", "2s");
            Instant start = Instant.ofEpochMilli(System.currentTimeMillis()).truncatedTo(ChronoUnit.SECONDS).plusSeconds(3);
            Instant end = start.plusSeconds(15);
            List<Long> expected = CronTimes.of("* * * * * *", "UTC").between(start.minusMillis(1), end, 1000).stream()
                    .map(Instant::toEpochMilli).toList();
            io.delayq.schedule.Schedules.of(client).put(CronSchedule.of("tick", "* * * * * *").window(start, end));
            fleet.start(env, fleet.recorder());
            fleet.start(env, fleet.recorder());

            await().atMost(Duration.ofSeconds(30)).until(() -> fleet.countById.size() >= 6);
            redis.server().restart();

            await().atMost(Duration.ofSeconds(60)).until(() -> fleet.countById.size() >= expected.size() && client.stats().inflight() == 0);

            Map<String, List<Fleet.Delivered>> byId = fleet.deliveries.stream().collect(Collectors.groupingBy(Fleet.Delivered::id));
            assertThat(byId.keySet().stream().map(id -> OccurrenceId.parse(id).orElseThrow().epochMillis()).sorted().toList())
                    .isEqualTo(expected);
            for (List<Fleet.Delivered> ds : byId.values()) {
                assertThat(ds.stream().map(Fleet.Delivered::attempt).toList()).doesNotHaveDuplicates();
                for (Fleet.Delivered d : ds) {
                    assertThat(d.handledAtMillis()).isGreaterThanOrEqualTo(OccurrenceId.parse(d.id()).orElseThrow().epochMillis());
                }
            }
        }
    }
}
