package io.delayq.bucket;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.GroupClaim;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.RetryResult;
import io.delayq.queue.QueueScope;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.serverNow;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Protocol 3's hot path on a real redis-server, through {@link BucketQueue}: due times and records survive the
 * bucket layout, duplicates are refused, the in-flight name fences a stale ack, leases extend and expire, retries and
 * dead letters count attempts per bucket, coarse minutes are promoted into windows, and a concurrent drain hands out
 * every task exactly once and leaves nothing behind.
 */
class BucketedQueueTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LONG = Duration.ofMinutes(5);
    private static final Duration AHEAD = Duration.ofMillis(100);
    private static final DeadLetterPolicy KEEP_ALL = new DeadLetterPolicy(0, Duration.ZERO);

    private RedisEndpoint endpoint;
    private BucketQueue q;

    @BeforeEach
    void open() {
        endpoint = RedisEndpoint.connect(redis.url());
        q = new BucketQueue(new QueueScope(endpoint, "orders"));
    }

    @AfterEach
    void close() {
        endpoint.close();
    }

    private RedisClusterAsyncCommands<String, String> redisCommands() {
        return endpoint.commands();
    }

    private List<EnqueueResult> enqueue(TaskSpec... tasks) {
        return sync(q.enqueue(0, List.of(tasks), System.currentTimeMillis()));
    }

    private ClaimBatch claim(int batch, Duration lease) {
        return sync(q.claim(0, batch, lease, AHEAD, ""));
    }

    private Set<String> keysLeft() {
        return new HashSet<>(get(redisCommands().keys("dq:{orders:0}:*")));
    }

    /** Nothing of a drained shard is left but its claim counter and (unless a worker took it) its wake-up marker. */
    private void assertNothingLeft() {
        assertThat(keysLeft()).as("keys of a drained shard").isSubsetOf("dq:{orders:0}:seq", "dq:{orders:0}:marker");
    }

    @Test
    void dueTimesAndRecordsComeBackAsEnqueuedAndNothingIsClaimedBeforeItsWindow() {
        long now = serverNow(redisCommands());
        Map<String, Long> due = new HashMap<>();
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long at = now - 5_000 + i * 37L;   // overdue, due now and up to ~6 s ahead, across many windows
            due.put("t" + i, at);
            specs.add(TaskSpec.of("t" + i).at(Instant.ofEpochMilli(at)).payload("p" + i + " {\"x\":1}"));
        }
        assertThat(enqueue(specs.toArray(TaskSpec[]::new))).allMatch(EnqueueResult::added);

        Map<String, ClaimedTask> seen = new HashMap<>();
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            ClaimBatch c = claim(50, LONG);
            long claimedAt = serverNow(redisCommands());
            for (ClaimedTask t : c.tasks()) {
                assertThat(t.dueAt()).as("due time of %s", t.id()).isEqualTo(due.get(t.id()));
                assertThat(t.dueAt()).as("%s claimed before its window", t.id())
                        .isLessThan(claimedAt + AHEAD.toMillis() + BucketLayout.WINDOW_MS);
                assertThat(t.attempt()).isEqualTo(1);
                assertThat(seen.put(t.id(), t)).as("%s claimed twice", t.id()).isNull();
            }
            if (!c.tasks().isEmpty()) {
                assertThat(sync(q.ack(0, c.tasks()))).containsOnly(true);
            }
            return seen.size() == 300;
        });
        assertThat(seen.get("t7").rawRecord()).endsWith("p7 {\"x\":1}");
        assertNothingLeft();
    }

    @Test
    void anEnqueueEarlierThanEverythingWaitingWakesASleepingWorkerForItsWindowAndALaterOneDoesNot() {
        long now = serverNow(redisCommands());
        String marker = "dq:{orders:0}:marker";
        long first = now + 5_090 - (now + 5_090) % 100 + 90;   // late in its window
        enqueue(TaskSpec.of("first").at(Instant.ofEpochMilli(first)));
        // the window's start, not the task's due time: a claim takes the window whole
        assertThat(get(redisCommands().zscore(marker, "next"))).as("into an empty shard").isEqualTo(first - 90.0);
        get(redisCommands().del(marker));   // a worker took the wake-up
        enqueue(TaskSpec.of("sooner-same-window").at(Instant.ofEpochMilli(first - 80)));
        assertThat(get(redisCommands().exists(marker))).as("a window already listed: the worker wakes for its start anyway").isZero();
        enqueue(TaskSpec.of("later").at(Instant.ofEpochMilli(now + 9_000)));
        assertThat(get(redisCommands().exists(marker))).as("behind what waits").isZero();
        long earlier = now + 2_000;
        enqueue(TaskSpec.of("earlier").at(Instant.ofEpochMilli(earlier)));
        assertThat(get(redisCommands().zscore(marker, "next"))).as("before what waits").isEqualTo((double) (earlier - earlier % 100));
    }

    @Test
    void anIdHeldWaitingInFlightOrDeadIsADuplicateUntilCancelled() {
        enqueue(TaskSpec.of("w").after(Duration.ofMinutes(1)), TaskSpec.of("f"), TaskSpec.of("d"));
        ClaimBatch c = claim(10, LONG);
        assertThat(c.tasks()).extracting(ClaimedTask::id).containsExactlyInAnyOrder("f", "d");
        ClaimedTask d = c.tasks().stream().filter(t -> t.id().equals("d")).findFirst().orElseThrow();
        assertThat(sync(q.retry(d, Duration.ZERO, "bad input", 5, true, KEEP_ALL)).status()).isEqualTo(RetryResult.Status.DEAD);

        assertThat(enqueue(TaskSpec.of("w"), TaskSpec.of("f"), TaskSpec.of("d"), TaskSpec.of("new")))
                .extracting(r -> r.status().name()).containsExactly("DUPLICATE", "DUPLICATE", "DUPLICATE", "ADDED");

        assertThat(sync(q.cancel(0, "w", 0))).isEqualTo(BucketQueue.Cancelled.CANCELLED);
        assertThat(sync(q.cancel(0, "f", 0))).isEqualTo(BucketQueue.Cancelled.INFLIGHT);
        assertThat(sync(q.cancel(0, "d", 0))).isEqualTo(BucketQueue.Cancelled.CANCELLED);
        assertThat(sync(q.cancel(0, "nobody", 0))).isEqualTo(BucketQueue.Cancelled.ABSENT);
        assertThat(get(redisCommands().zcard("dq:{orders:0}:dead"))).isZero();
        assertThat(enqueue(TaskSpec.of("w"), TaskSpec.of("d")).stream().allMatch(EnqueueResult::added)).isTrue();
    }

    @Test
    void aStaleAckAfterAReclaimAcksNothingAndTheNextAttemptIsAckedOnce() {
        enqueue(TaskSpec.of("a"), TaskSpec.of("b"));
        ClaimBatch first = claim(10, Duration.ofMillis(200));
        assertThat(first.tasks()).hasSize(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> sync(q.reclaim(0, 100, 5, KEEP_ALL)).requeued() == 2);

        assertThat(sync(q.ack(0, first.tasks()))).as("the first claim's ack, after its lease expired").containsOnly(false);
        assertThat(sync(q.extend(0, first.tasks().subList(0, 1), Duration.ofMinutes(1)))).as("no revival").containsExactly(0L);
        ClaimBatch second = claim(10, LONG);
        assertThat(second.tasks()).extracting(ClaimedTask::attempt).containsOnly(2);
        assertThat(second.tasks()).extracting(ClaimedTask::id).containsExactlyInAnyOrder("a", "b");
        assertThat(sync(q.ack(0, second.tasks()))).containsExactly(true, true);
        assertThat(sync(q.ack(0, second.tasks()))).as("re-sent ack").containsExactly(false, false);
        assertNothingLeft();
    }

    @Test
    void aClaimSentAgainWithItsRequestIdAnswersWhatTheFirstTookAndStillHolds() {
        enqueue(TaskSpec.of("a"), TaskSpec.of("b"), TaskSpec.of("c"));
        ClaimBatch first = sync(q.claim(0, 10, LONG, AHEAD, "req-1"));
        assertThat(first.tasks()).hasSize(3);
        enqueue(TaskSpec.of("d"));
        ClaimBatch again = sync(q.claim(0, 10, LONG, AHEAD, "req-1"));
        assertThat(again.tasks()).as("the same tasks, buckets and lease, nothing more").isEqualTo(first.tasks());
        ClaimedTask a = first.tasks().stream().filter(t -> t.id().equals("a")).findFirst().orElseThrow();
        sync(q.ack(0, List.of(a)));
        assertThat(sync(q.claim(0, 10, LONG, AHEAD, "req-1")).tasks()).extracting(ClaimedTask::id).containsExactlyInAnyOrder("b", "c");
        assertThat(sync(q.claim(0, 10, LONG, AHEAD, "req-2")).tasks()).extracting(ClaimedTask::id).containsExactly("d");
    }

    @Test
    void anExtendedLeaseOutlivesItsFirstTermAndIsNeverShortened() {
        enqueue(TaskSpec.of("a"));
        ClaimedTask a = claim(10, Duration.ofMillis(300)).tasks().get(0);
        long before = serverNow(redisCommands());
        long later = sync(q.extend(0, List.of(a), Duration.ofMinutes(1))).get(0);
        assertThat(later).isBetween(before + 60_000, serverNow(redisCommands()) + 60_000);
        assertThat(sync(q.extend(0, List.of(a), Duration.ofSeconds(30)))).as("never shortened").containsExactly(later);
        long past = serverNow(redisCommands()) + 1_000;
        await().pollDelay(Duration.ofMillis(400)).atMost(Duration.ofSeconds(5)).until(() -> serverNow(redisCommands()) > past);
        assertThat(sync(q.reclaim(0, 100, 5, KEEP_ALL)).requeued()).as("beyond the first lease, still held").isZero();
        assertThat(sync(q.ack(0, List.of(a)))).containsExactly(true);
    }

    @Test
    void retriesWaitTheirBackoffAsTheNextAttemptAndDieAtTheLimit() {
        enqueue(TaskSpec.of("r").payload("keep me"));
        ClaimedTask r = claim(10, LONG).tasks().get(0);
        long before = serverNow(redisCommands());
        RetryResult retried = sync(q.retry(r, Duration.ofMillis(300), "boom 1", 2, false, KEEP_ALL));
        assertThat(retried.status()).isEqualTo(RetryResult.Status.RETRIED);
        assertThat(retried.at()).isBetween(before + 300, serverNow(redisCommands()) + 300);
        assertThat(get(redisCommands().hget("dq:{orders:0}:err", "r"))).isEqualTo("boom 1");
        assertThat(sync(q.retry(r, Duration.ZERO, "again", 2, false, KEEP_ALL)).status()).as("the same claim again").isEqualTo(RetryResult.Status.STALE);

        List<ClaimedTask> second = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> second.addAll(claim(10, LONG).tasks()));
        ClaimedTask r2 = second.get(0);
        assertThat(r2.attempt()).isEqualTo(2);
        assertThat(r2.dueAt()).isEqualTo(retried.at());
        assertThat(r2.rawRecord()).isEqualTo(r.rawRecord());
        assertThat(serverNow(redisCommands())).as("never before its backoff ends").isGreaterThanOrEqualTo(r2.dueAt() - AHEAD.toMillis() - BucketLayout.WINDOW_MS);

        assertThat(sync(q.retry(r2, Duration.ZERO, "boom 2", 2, false, KEEP_ALL)).status()).isEqualTo(RetryResult.Status.DEAD);
        assertThat(get(redisCommands().zscore("dq:{orders:0}:dead", "r"))).isNotNull();
        assertThat(get(redisCommands().hget("dq:{orders:0}:dv", "r"))).as("the attempts it used, then its record").isEqualTo("2|" + r.rawRecord());
        assertThat(get(redisCommands().hget("dq:{orders:0}:err", "r"))).isEqualTo("boom 2");

        enqueue(TaskSpec.of("s"));
        ClaimedTask s = claim(10, LONG).tasks().get(0);
        sync(q.retry(s, Duration.ZERO, "once", 5, false, KEEP_ALL));
        List<ClaimedTask> again = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> again.addAll(claim(10, LONG).tasks()));
        assertThat(sync(q.ack(0, again))).containsExactly(true);
        assertThat(get(redisCommands().hexists("dq:{orders:0}:err", "s"))).as("an acked later attempt forgets its error").isFalse();
    }

    @Test
    void anAckOfABucketOneOfWhoseTasksWasRetriedAcksTheOthersAndKeepsTheRetriedOneWaiting() {
        enqueue(TaskSpec.of("a"), TaskSpec.of("b"), TaskSpec.of("c"));
        List<ClaimedTask> claimed = claim(10, LONG).tasks();
        ClaimedTask b = claimed.stream().filter(t -> t.id().equals("b")).findFirst().orElseThrow();
        sync(q.retry(b, Duration.ofMinutes(1), "later", 5, false, KEEP_ALL));
        List<Boolean> acked = sync(q.ack(0, claimed));
        for (int i = 0; i < claimed.size(); i++) {
            assertThat(acked.get(i)).as("acked %s", claimed.get(i).id()).isEqualTo(!claimed.get(i).id().equals("b"));
        }
        assertThat(enqueue(TaskSpec.of("a"), TaskSpec.of("b")).stream().map(r -> r.status().name()).toList())
                .as("a is gone, b still waits").containsExactly("ADDED", "DUPLICATE");
        assertThat(sync(q.cancel(0, "b", 0))).isEqualTo(BucketQueue.Cancelled.CANCELLED);
    }

    @Test
    void deadLettersAreKeptWithinTheirCountAndTheTrimmedOnesAreForgottenById() {
        DeadLetterPolicy two = new DeadLetterPolicy(2, Duration.ZERO);
        for (String id : List.of("d1", "d2", "d3")) {
            enqueue(TaskSpec.of(id));
            ClaimedTask t = claim(10, LONG).tasks().get(0);
            assertThat(sync(q.retry(t, Duration.ZERO, "bad", 5, true, two)).status()).isEqualTo(RetryResult.Status.DEAD);
        }
        assertThat(get(redisCommands().zrange("dq:{orders:0}:dead", 0, -1))).containsExactly("d2", "d3");
        assertThat(get(redisCommands().hkeys("dq:{orders:0}:dv"))).containsExactlyInAnyOrder("d2", "d3");
        assertThat(get(redisCommands().hexists("dq:{orders:0}:err", "d1"))).isFalse();
        assertThat(enqueue(TaskSpec.of("d1"), TaskSpec.of("d2")).stream().map(r -> r.status().name()).toList())
                .as("the trimmed id is free again, a kept one is still a duplicate").containsExactly("ADDED", "DUPLICATE");
    }

    @Test
    void higherPriorityLevelsAreClaimedFirstAndKeepTheirLevelThroughRetryReclaimAndPromotion() {
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            specs.add(TaskSpec.of("t" + i).priority(i % 3));
        }
        enqueue(specs.toArray(TaskSpec[]::new));
        List<Integer> levels = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            ClaimBatch c = claim(10, LONG);
            c.tasks().forEach(t -> levels.add(Integer.parseInt(t.id().substring(1)) % 3));
            if (round == 0) {
                ClaimedTask top = c.tasks().get(0);
                sync(q.retry(top, Duration.ZERO, "again", 5, false, KEEP_ALL));
                ClaimedTask again = claim(1, LONG).tasks().get(0);
                assertThat(again.id()).as("a retried level-2 task comes before every level-1 one").isEqualTo(top.id());
                assertThat(again.attempt()).isEqualTo(2);
                sync(q.ack(0, List.of(again)));
            }
            sync(q.ack(0, c.tasks()));
        }
        assertThat(levels).as("level 2, then 1, then 0").containsExactly(
                2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        enqueue(TaskSpec.of("low"), TaskSpec.of("high").priority(1));
        claim(10, Duration.ofMillis(100));
        await().atMost(Duration.ofSeconds(5)).until(() -> sync(q.reclaim(0, 100, 5, KEEP_ALL)).requeued() == 2);
        assertThat(claim(1, LONG).tasks()).as("reclaimed: still level 1 first").extracting(ClaimedTask::id).containsExactly("high");

        long due = serverNow(redisCommands()) + BucketLayout.HORIZON_MS + 90_000;
        enqueue(TaskSpec.of("far-high").at(Instant.ofEpochMilli(due)).priority(2));
        sync(q.scope().scripts().run(BucketScript.RECLAIM, List.of(BucketLayout.prefix("orders", 0)),
                List.of(String.valueOf(due - BucketLayout.HORIZON_MS + 1), "100", "5", "0", "0")));
        assertThat(get(redisCommands().zcard("dq:{orders:0}:idx2"))).as("promoted into its level").isEqualTo(1);
    }

    @Test
    void aBucketWhoseLeaseExpiresAtTheLimitGoesToTheDeadLettersWithTheAttempt() {
        enqueue(TaskSpec.of("a"), TaskSpec.of("b"));
        claim(10, Duration.ofMillis(100));
        await().atMost(Duration.ofSeconds(5)).until(() -> sync(q.reclaim(0, 100, 1, KEEP_ALL)).dead() == 2);
        assertThat(get(redisCommands().hget("dq:{orders:0}:err", "a"))).isEqualTo("lease expired on attempt 1 (worker died or stalled)");
        assertThat(enqueue(TaskSpec.of("a")).get(0).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        assertThat(sync(q.cancel(0, "a", 0))).isEqualTo(BucketQueue.Cancelled.CANCELLED);
    }

    @Test
    void aTaskDueBeyondTheHorizonWaitsInACoarseMinuteUntilPromotedIntoItsWindow() {
        long now = serverNow(redisCommands());
        long due = now + BucketLayout.HORIZON_MS + 90_000;
        enqueue(TaskSpec.of("far").at(Instant.ofEpochMilli(due)).payload("later"));
        assertThat(get(redisCommands().zcard("dq:{orders:0}:cidx"))).isEqualTo(1);
        assertThat(get(redisCommands().zcard("dq:{orders:0}:idx"))).isZero();
        assertThat(sync(q.cancel(0, "far", 0))).as("found by id in its minute").isEqualTo(BucketQueue.Cancelled.CANCELLED);
        enqueue(TaskSpec.of("far").at(Instant.ofEpochMilli(due)).payload("later"));

        // the sweep as it would run once the minute comes within the horizon: the script's clock is an argument
        List<Object> swept = sync(q.scope().scripts().run(BucketScript.RECLAIM, List.of(BucketLayout.prefix("orders", 0)),
                List.of(String.valueOf(due - BucketLayout.HORIZON_MS + 1), "100", "5")));
        assertThat(swept.get(2)).isEqualTo(1L);
        assertThat(get(redisCommands().zcard("dq:{orders:0}:cidx"))).isZero();
        List<Object> claimed = sync(q.scope().scripts().run(BucketScript.CLAIM, List.of(BucketLayout.prefix("orders", 0)),
                List.of("10", "60000", String.valueOf(due), "0")));
        String flight = (String) claimed.get(3);
        @SuppressWarnings("unchecked")
        List<Object> flat = (List<Object>) claimed.get(4);
        String name = flight.substring(0, flight.indexOf('@'));
        assertThat(flat.get(0)).isEqualTo("far");
        assertThat(BucketLayout.dueOf(name, (String) flat.get(1))).isEqualTo(due);
        assertThat(BucketLayout.recordOf(name, (String) flat.get(1))).endsWith("later");
    }

    @Test
    void aClaimWithRoomAheadTakesTheBegunAndTheComingWindowsUnderOneTagAndSaysItLookedAhead() {
        long now = serverNow(redisCommands());
        long begun = now - now % BucketLayout.WINDOW_MS;
        long next = begun + BucketLayout.WINDOW_MS;
        long afterThat = next + BucketLayout.WINDOW_MS;
        enqueue(TaskSpec.of("overdue").at(Instant.ofEpochMilli(begun - 1_000)), TaskSpec.of("begun").at(Instant.ofEpochMilli(begun)),
                TaskSpec.of("next").at(Instant.ofEpochMilli(next + 10)), TaskSpec.of("after").at(Instant.ofEpochMilli(afterThat + 10)));
        String seq = "dq:{orders:0}:seq";
        long before = get(redisCommands().exists(seq)) == 0 ? 0 : Long.parseLong(get(redisCommands().get(seq)));

        // windows starting within 250 ms: the next two, taken into the room beside the begun ones
        ClaimBatch c = sync(q.claim(0, 10, LONG, Duration.ofMillis(250), 10, "", 0, 0, GroupClaim.NONE));

        assertThat(c.tasks()).extracting(ClaimedTask::id).containsExactlyInAnyOrder("overdue", "begun", "next", "after");
        assertThat(c.lookedAhead()).as("a claim that looked ahead says so").isTrue();
        Set<String> tags = new HashSet<>();
        c.tasks().forEach(t -> tags.add(t.flight().substring(t.flight().lastIndexOf('@'))));
        assertThat(tags).as("one tag for the claim's windows: their names differ already").hasSize(1);
        assertThat(Long.parseLong(get(redisCommands().get(seq)))).as("the claim counter, once a claim").isEqualTo(before + 1);
        assertThat(sync(q.ack(0, c.tasks()))).containsOnly(true);
        assertNothingLeft();
    }

    @Test
    void aBucketLargerThanTheBatchIsSplitAndEachTaskClaimedOnce() {
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            specs.add(TaskSpec.of("s" + i));
        }
        sync(q.enqueue(0, specs, System.currentTimeMillis()));
        Set<String> seen = new HashSet<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            ClaimBatch c = claim(7, LONG);
            assertThat(c.tasks().size()).isLessThanOrEqualTo(7);
            for (ClaimedTask t : c.tasks()) {
                assertThat(seen.add(t.id())).as("%s twice", t.id()).isTrue();
            }
            sync(q.ack(0, c.tasks()));
            return seen.size() == 240;
        });
        assertNothingLeft();
    }

    @Test
    void concurrentClaimersWithExpiringLeasesHandEveryTaskOutAndAckItExactlyOnce() throws Exception {
        int n = 20_000;
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(TaskSpec.of("task-" + i));
            if (specs.size() == 500) {
                sync(q.enqueue(0, specs, System.currentTimeMillis()));
                specs = new ArrayList<>();
            }
        }
        Map<String, Integer> acked = new ConcurrentHashMap<>();
        AtomicInteger dropped = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int worker = w;
            workers.add(pool.submit(() -> {
                int rounds = 0;
                while (acked.size() < n) {
                    ClaimBatch c = sync(q.claim(0, 300, Duration.ofMillis(250), AHEAD, ""));
                    // one worker in four drops every fifth claim, as if killed holding it: its leases expire
                    if (worker == 0 && ++rounds % 5 == 0 && !c.tasks().isEmpty()) {
                        dropped.addAndGet(c.tasks().size());
                        continue;
                    }
                    Map<String, List<ClaimedTask>> byBucket = new HashMap<>();
                    c.tasks().forEach(t -> byBucket.computeIfAbsent(t.flight(), f -> new ArrayList<>()).add(t));
                    for (List<ClaimedTask> bucket : byBucket.values()) {
                        List<Boolean> done = sync(q.ack(0, bucket));
                        assertThat(new HashSet<>(done)).as("a bucket is acked whole or not at all").hasSize(1);
                        if (done.get(0)) {
                            bucket.forEach(t -> acked.merge(t.id(), 1, Integer::sum));
                        }
                    }
                    sync(q.reclaim(0, 100, 100, KEEP_ALL));
                }
                return null;
            }));
        }
        for (Future<?> f : workers) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(dropped.get()).as("some claims were dropped").isPositive();
        assertThat(acked).hasSize(n);
        assertThat(acked.values()).as("acked once each").containsOnly(1);
        assertNothingLeft();
    }

    @Test
    void aPausedShardHandsOutNothingUntilResumed() {
        enqueue(TaskSpec.of("a"));
        get(redisCommands().hset("dq:{orders:0}:paused", "at", "1"));   // as shard_pause.lua writes it
        ClaimBatch paused = claim(10, LONG);
        assertThat(paused.tasks()).isEmpty();
        assertThat(paused.nextDueAt()).as("no wake-up while paused").isEqualTo(-1);
        get(redisCommands().hdel("dq:{orders:0}:paused", "at"));
        assertThat(claim(10, LONG).tasks()).extracting(ClaimedTask::id).containsExactly("a");
    }
}
