package io.delayq.bucket;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.ForecastReader;
import io.delayq.backlog.ShardStats;
import io.delayq.backlog.StatsReader;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.CancelResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static io.delayq.redis.Replies.asLong;
import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.serverNow;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shard's backlog (stats) and due forecast on protocol 3 answer what protocol 2 answers for the same calls: the
 * same sequence runs on a queue of each protocol, and both are held to the counts the sequence implies.
 */
class BucketedBacklogTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final DeadLetterPolicy KEEP_ALL = new DeadLetterPolicy(0, Duration.ZERO);

    private RedisEndpoint endpoint;

    @BeforeEach
    void open() {
        endpoint = RedisEndpoint.connect(redis.url());
    }

    @AfterEach
    void close() {
        endpoint.close();
    }

    private static DelayQueueClient client(String queue, int protocol) {
        DelayQueueClient client = NewQueuesOnProtocol3.creating(protocol,
                () -> DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(1).build());
        assertThat(client.protocol().buckets() != null).as("recorded as protocol " + protocol).isEqualTo(protocol == 3);
        return client;
    }

    private static ShardStats stats(DelayQueueClient client) {
        return sync(new StatsReader(client.protocol().scope()).stats(0));
    }

    private static List<ClaimedTask> claim(DelayQueueClient client, int batch) {
        return sync(client.protocol().claim(0, batch, Duration.ofMinutes(5), RateLimit.NONE)).tasks();
    }

    private static long oldestOf(Map<String, Long> dueNow) {
        return dueNow.values().stream().mapToLong(Long::longValue).min().orElse(-1);
    }

    private static void assertCounts(DelayQueueClient client, Map<String, Long> dueNow, int scheduled, int inflight, int dead) {
        ShardStats s = stats(client);
        assertThat(List.of(s.scheduled(), s.due(), s.inflight(), s.dead(), s.oldestDueAt()))
                .as("scheduled, due, in flight, dead, oldest due")
                .containsExactly((long) scheduled, (long) dueNow.size(), (long) inflight, (long) dead, oldestOf(dueNow));
    }

    @ParameterizedTest(name = "protocol {0}")
    @ValueSource(ints = {2, 3})
    void statsCountWhatWaitsWhatIsDueWhatRunsAndWhatIsDeadThroughEveryCall(int protocol) {
        try (DelayQueueClient client = client("backlog" + protocol, protocol)) {
            long now = serverNow(endpoint.commands());
            Map<String, Long> dueNow = new HashMap<>();
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                long at = now - 5_000 + i * 150L;
                dueNow.put("due-" + i, at);
                specs.add(TaskSpec.of("due-" + i).at(Instant.ofEpochMilli(at)).priority(i % 3));
            }
            long[] ahead = {30_000, 45_000, 50_000, 20 * 60_000, 40 * 60_000, 3 * 3_600_000, 5 * 3_600_000};
            for (int i = 0; i < ahead.length; i++) {
                specs.add(TaskSpec.of("later-" + i).at(Instant.ofEpochMilli(now + ahead[i])).priority(i % 2));
            }
            client.enqueueAll(specs);
            assertCounts(client, dueNow, 7, 0, 0);

            List<ClaimedTask> claimed = claim(client, 5);
            assertThat(claimed).isNotEmpty();
            claimed.forEach(t -> dueNow.remove(t.id()));
            assertCounts(client, dueNow, 7, claimed.size(), 0);

            sync(client.protocol().retry(claimed.get(0), Duration.ofHours(1), "later", 5, false, KEEP_ALL));
            int scheduled = 8;
            int inflight = claimed.size() - 1;
            int dead = 0;
            if (claimed.size() > 1) {
                sync(client.protocol().retry(claimed.get(1), Duration.ZERO, "bad input", 5, true, KEEP_ALL));
                inflight--;
                dead++;
            }
            assertCounts(client, dueNow, scheduled, inflight, dead);

            assertThat(client.cancel("later-0")).isEqualTo(CancelResult.CANCELLED);
            client.reschedule("later-1", Instant.ofEpochMilli(now - 60_000));
            dueNow.put("later-1", now - 60_000);
            scheduled -= 2;
            assertCounts(client, dueNow, scheduled, inflight, dead);

            List<ClaimedTask> running = claimed.subList(Math.min(2, claimed.size()), claimed.size());
            if (!running.isEmpty()) {
                sync(client.protocol().ack(0, running));
            }
            assertCounts(client, dueNow, scheduled, 0, dead);

            List<ClaimedTask> rest = claim(client, 100);
            assertThat(rest).extracting(ClaimedTask::id).containsExactlyInAnyOrderElementsOf(dueNow.keySet());
            sync(client.protocol().ack(0, rest));
            dueNow.clear();
            assertCounts(client, dueNow, scheduled, 0, dead);
        }
    }

    @ParameterizedTest(name = "protocol {0}")
    @ValueSource(ints = {2, 3})
    void theForecastCountsTheTasksDueWithinEachWindowAndNamesTheNextDue(int protocol) {
        try (DelayQueueClient client = client("forecast" + protocol, protocol)) {
            long now = serverNow(endpoint.commands());
            List<TaskSpec> specs = new ArrayList<>();
            specs.add(TaskSpec.of("overdue").at(Instant.ofEpochMilli(now - 1_000)));
            // 9m30s waits in a window and 10m30s in a coarse minute (beyond the horizon) that the 10-minute window
            // cuts through
            long[] ahead = {2_000, 30_000, 5 * 60_000, 9 * 60_000 + 30_000, 10 * 60_000 + 30_000, 20 * 60_000, 2 * 3_600_000,
                    5 * 3_600_000};
            for (int i = 0; i < ahead.length; i++) {
                specs.add(TaskSpec.of("t-" + i).at(Instant.ofEpochMilli(now + ahead[i])).priority(i % 3));
            }
            client.enqueueAll(specs);
            List<Duration> windows = List.of(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofHours(3));
            DueForecast f = sync(new ForecastReader(client.protocol().scope()).forecast(IntStream.of(0), windows));
            assertThat(f.nextDueAt()).isEqualTo(now + 2_000);
            assertThat(windows.stream().map(f::dueWithin).toList()).containsExactly(2L, 4L, 7L);
        }
    }

    @Test
    void pastTheBucketsItReadsACallCountsTheRestAtTheReadOnesAverage() {
        try (DelayQueueClient client = client("estimate", 3)) {
            long now = serverNow(endpoint.commands());
            long base = now - 10_000 - now % BucketLayout.WINDOW_MS;
            long future = now + 60_000 - now % BucketLayout.WINDOW_MS;
            // four windows due (2, 4, 5 and 1 tasks) and four ahead (the same), each window one bucket
            int[] sizes = {2, 4, 5, 1};
            List<TaskSpec> specs = new ArrayList<>();
            for (int w = 0; w < sizes.length; w++) {
                for (int k = 0; k < sizes[w]; k++) {
                    specs.add(TaskSpec.of("d" + w + "-" + k).at(Instant.ofEpochMilli(base + w * 1_000L + k)));
                    specs.add(TaskSpec.of("f" + w + "-" + k).at(Instant.ofEpochMilli(future + w * 1_000L + k)));
                }
            }
            client.enqueueAll(specs);
            BucketQueue buckets = client.protocol().buckets();

            List<Object> exact = sync(buckets.stats(0));
            assertThat(List.of(asLong(exact.get(1)), asLong(exact.get(2)))).as("scheduled, due").containsExactly(12L, 12L);
            List<Object> estimated = sync(buckets.stats(0, 2));
            // read: the windows of 2 and 4 tasks; the two unread count 3 each
            assertThat(List.of(asLong(estimated.get(1)), asLong(estimated.get(2)))).containsExactly(12L, 12L);
            List<Object> fewer = sync(buckets.stats(0, 3));
            // read: 2, 4 and 5; the unread one counts as their average, 11 / 3 rounded
            assertThat(List.of(asLong(fewer.get(1)), asLong(fewer.get(2)))).containsExactly(9L, 15L);

            List<Object> forecast = sync(buckets.forecast(0, List.of("120000"), 3));
            assertThat(asLong(forecast.get(2))).isEqualTo(15L);
            assertThat(asLong(sync(buckets.forecast(0, List.of("120000"))).get(2))).isEqualTo(12L);
        }
    }

    @Test
    void browsingWindowsPagesInDueOrderStoppingBetweenWindowsAtTheBudget() {
        try (DelayQueueClient client = client("browse-windows", 3)) {
            long now = serverNow(endpoint.commands());
            // 3,000 tasks due within the horizon: 30 a window of 100 ms, ids interleaved against due order
            List<TaskSpec> specs = new ArrayList<>();
            Map<String, Long> due = new HashMap<>();
            for (int i = 0; i < 3_000; i++) {
                long at = now + 60_000 + (i % 100) * 100L + i / 100;
                due.put("w-" + i, at);
                specs.add(TaskSpec.of("w-" + i).at(Instant.ofEpochMilli(at)).priority(i % 3));
            }
            client.enqueueAll(specs);
            io.delayq.browse.BrowseScript script = new io.delayq.browse.BrowseScript(client.protocol().scope());
            io.delayq.browse.BrowseQuery query = io.delayq.browse.BrowseQuery.of(io.delayq.browse.BrowseState.SCHEDULED).limit(500);
            List<io.delayq.browse.BrowsedTask> seen = new ArrayList<>();
            io.delayq.browse.Position after = null;
            int calls = 0;
            do {
                io.delayq.browse.ShardPage page = sync(script.browse(0, query, after, 500, 100, 160));
                calls++;
                // a call stops between windows once 100 were read: at most a window's 30 beyond the budget
                assertThat(page.tasks()).hasSizeLessThanOrEqualTo(100 + 30);
                seen.addAll(page.tasks());
                after = page.frontier() != null ? page.frontier() : null;
                if (!page.tasks().isEmpty() && after != null && page.tasks().get(page.tasks().size() - 1).position().compareTo(after) > 0) {
                    after = page.tasks().get(page.tasks().size() - 1).position();
                }
            } while (after != null && calls < 1_000);
            assertThat(calls).as("pages of about 100").isBetween(23, 31);
            assertThat(seen).extracting(io.delayq.browse.BrowsedTask::id).doesNotHaveDuplicates().hasSize(3_000);
            assertThat(seen).isSortedAccordingTo(java.util.Comparator.comparing(io.delayq.browse.BrowsedTask::position));
            assertThat(seen).allSatisfy(t -> assertThat(t.score()).isEqualTo(due.get(t.id())));
        }
    }

    @Test
    void aDrainedShardKeepsNoCount() {
        try (DelayQueueClient client = client("drained", 3)) {
            client.enqueueAll(List.of(TaskSpec.of("a"), TaskSpec.of("b")));
            assertThat(get(endpoint.commands().get(BucketLayout.prefix("drained", 0) + "waiting"))).isEqualTo("2");
            List<ClaimedTask> all = claim(client, 10);
            sync(client.protocol().ack(0, all));
            assertThat(get(endpoint.commands().exists(BucketLayout.prefix("drained", 0) + "waiting"))).isZero();
        }
    }
}
