package io.delayq.claim;

import io.delayq.task.EnqueueResult;
import io.delayq.task.Priority;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/** claim.lua: batches, leases, next due time, priority, the rate limit's split over shards and the server clock (its token bucket: ClaimRateLimitTest). */
class ClaimTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    private static Instant ago(long seconds) {
        return Instant.now().minusSeconds(seconds);
    }

    /** The earliest server time a claim may hand out a task due at {@code dueAt}: its due time. */
    long earliestClaimOf(long dueAt) {
        return dueAt;
    }

    /** The next due time a claim reports while the earliest task still waiting is due at {@code dueAt}: that due time. */
    long nextDueAtFor(long dueAt) {
        return dueAt;
    }

    @Test
    void claimMovesUpToABatchOfDueTasksIntoFlightUnderOneLease() {
        for (int i = 0; i < 5; i++) {
            q.client().enqueue(TaskSpec.of("t" + i).at(ago(50 - i)).payload("p" + i));
        }
        Instant future = Instant.now().plusSeconds(3600);
        q.client().enqueue(TaskSpec.of("later").at(future));

        ClaimBatch first = q.claim(0, 3, LEASE);
        assertThat(first.shard()).isZero();
        assertThat(first.tasks()).extracting(ClaimedTask::id).containsExactly("t0", "t1", "t2");
        assertThat(first.tasks()).allSatisfy(t -> {
            assertThat(t.token()).isEqualTo(first.serverNow() + LEASE.toMillis());
            assertThat(t.attempt()).isEqualTo(1);
            assertThat(t.dueAt()).isLessThanOrEqualTo(first.serverNow());
        });
        assertThat(TaskRecord.decode(first.tasks().get(1).rawRecord()).payload()).isEqualTo("p1");
        // more is due already: the worker should claim again at once
        assertThat(first.nextDueAt()).isLessThanOrEqualTo(first.serverNow());
        assertThat(q.inFlight(0).keySet()).containsExactly("t0", "t1", "t2");
        // a first attempt writes no attempt count (ATTEMPTS holds the attempts that ended without an ack)
        assertThat(get(q.redis().exists(q.keys(0).attempts()))).isZero();
        assertThat(q.client().inspect("t0").attempts()).as("inspect shows the attempt it is on").isEqualTo(1);

        ClaimBatch second = q.claim(0, 10, LEASE);
        assertThat(second.tasks()).extracting(ClaimedTask::id).containsExactly("t3", "t4");
        // only the future task waits: its due time seeds the worker's timer
        assertThat(second.nextDueAt()).isEqualTo(nextDueAtFor(future.toEpochMilli()));
        assertThat(second.hasNext()).isTrue();

        ClaimBatch none = q.claim(0, 10, LEASE);
        assertThat(none.tasks()).isEmpty();
        assertThat(none.nextDueAt()).isEqualTo(nextDueAtFor(future.toEpochMilli()));
        q.client().cancel("later");
        assertThat(q.claim(0, 10, LEASE).hasNext()).isFalse();
        assertThat(q.claim(0, 10, LEASE).nextDueAt()).isEqualTo(-1);
    }

    @Test
    void nothingFiresBeforeItsDueTime() {
        q.client().enqueue(TaskSpec.of("soon").after(Duration.ofMillis(300)).priority(Priority.HIGHEST));
        EnqueueResult r = q.client().enqueue(TaskSpec.of("soon-normal").after(Duration.ofMillis(300)));
        List<ClaimedTask> got = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> {
            ClaimBatch b = q.claim(0, 10, LEASE);
            for (ClaimedTask t : b.tasks()) {
                assertThat(b.serverNow()).as("claim time of %s", t.id()).isGreaterThanOrEqualTo(earliestClaimOf(t.dueAt()));
            }
            if (b.tasks().isEmpty()) {
                assertThat(b.nextDueAt()).isGreaterThan(b.serverNow());
            }
            got.addAll(b.tasks());
            return got.size() == 2;
        });
        assertThat(got).extracting(ClaimedTask::id).containsExactly("soon", "soon-normal");
        assertThat(got.get(1).dueAt()).isEqualTo(r.dueAt());
    }

    @Test
    void higherPriorityIsClaimedFirstWhenABacklogExists() {
        // normal tasks overdue the longest, high and highest ones overdue for less, one highest task not yet due
        for (int i = 0; i < 4; i++) {
            q.client().enqueue(TaskSpec.of("normal-" + i).at(ago(100 + i)));
            q.client().enqueue(TaskSpec.of("high-" + i).at(ago(50 + i)).priority(Priority.HIGH));
            q.client().enqueue(TaskSpec.of("highest-" + i).at(ago(10 + i)).priority(Priority.HIGHEST));
        }
        Instant future = Instant.now().plusSeconds(3600);
        q.client().enqueue(TaskSpec.of("highest-future").at(future).priority(Priority.HIGHEST));

        ClaimBatch b1 = q.claim(0, 3, LEASE);
        assertThat(b1.tasks()).extracting(ClaimedTask::id).containsExactly("highest-3", "highest-2", "highest-1");
        ClaimBatch b2 = q.claim(0, 3, LEASE);
        assertThat(b2.tasks()).extracting(ClaimedTask::id).containsExactly("highest-0", "high-3", "high-2");
        ClaimBatch b3 = q.claim(0, 4, LEASE);
        assertThat(b3.tasks()).extracting(ClaimedTask::id).containsExactly("high-1", "high-0", "normal-3", "normal-2");
        ClaimBatch b4 = q.claim(0, 10, LEASE);
        assertThat(b4.tasks()).extracting(ClaimedTask::id).containsExactly("normal-1", "normal-0");
        // the highest-priority task that is not due stays put, and its real due time is reported
        assertThat(b4.nextDueAt()).isEqualTo(nextDueAtFor(future.toEpochMilli()));
        assertThat(q.waitingAt(0, 2)).containsExactly(entry("highest-future", future.toEpochMilli()));
    }

    @Test
    void dueTimeOfADelayIsComputedInTheScriptOnTheServerClock() {
        // record the arguments Redis receives: the client must send the delay, not a time from its own clock
        get(q.redis().configSet("slowlog-log-slower-than", "0"));
        get(q.redis().slowlogReset());
        try {
            long before = q.serverNow();
            EnqueueResult r = q.client().enqueue(TaskSpec.of("in-5s").after(Duration.ofSeconds(5)));
            long after = q.serverNow();
            assertThat(r.dueAt()).isBetween(before + 5_000, after + 5_000);

            assertSendsTheDelay(enqueueArgs());
        } finally {
            get(q.redis().configSet("slowlog-log-slower-than", "10000"));
        }
        // and a claim's "now" is the server's
        long before = q.serverNow();
        ClaimBatch b = q.claim(0, 1, LEASE);
        assertThat(b.serverNow()).isBetween(before, q.serverNow());
    }

    /** The enqueue of "in-5s" sent its delay (ARGV: mode, n, id, timing, ms, record, level, layout epoch, where). */
    void assertSendsTheDelay(List<String> args) {
        assertThat(args.subList(args.size() - 9, args.size() - 4)).containsExactly("reject", "1", "in-5s", "in", "5000");
    }

    @SuppressWarnings("unchecked")
    private List<String> enqueueArgs() {
        for (Object entry : get(q.redis().slowlogGet(128))) {
            List<Object> e = (List<Object>) entry;
            List<Object> argv = (List<Object>) e.get(3);
            if (argv.contains("in-5s")) {
                return argv.stream().map(String::valueOf).toList();
            }
        }
        throw new AssertionError("the enqueue did not show up in SLOWLOG");
    }

    @Test
    void rateLimitIsSplitOverShards() {
        RateLimit limit = new RateLimit(100, 20);
        assertThat(limit.perShard(4)).isEqualTo(25.0);
        assertThat(limit.burstPerShard(4)).isEqualTo(5);
        assertThat(limit.burstPerShard(64)).isEqualTo(1);
        assertThat(RateLimit.NONE.enabled()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RateLimit(-1, 1)).hasMessageStartingWith("rateLimit: ");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RateLimit(5, 0)).hasMessageStartingWith("rateBurst: ");
    }
}
