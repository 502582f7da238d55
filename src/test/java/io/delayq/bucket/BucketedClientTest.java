package io.delayq.bucket;

import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowseState;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPage;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java client on a queue recorded as protocol 3: inspect, reschedule and cancel by id answer as on protocol 2.
 */
class BucketedClientTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    private static final DeadLetterPolicy KEEP_ALL = new DeadLetterPolicy(0, Duration.ZERO);

    private ClaimedTask claimOne(DelayQueueClient client) {
        int shard = client.protocol().shardOf("a");
        return sync(client.protocol().claim(shard, 10, Duration.ofMinutes(1), RateLimit.NONE)).tasks().get(0);
    }

    @Test
    void inspectRescheduleAndCancelAnswerAsOnProtocolTwoAndTheRestIsRefusedNamingIt() {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("p3client").shards(2).build()) {
            assertThat(client.protocol().buckets()).as("recorded as protocol 3").isNotNull();
            Instant due = Instant.now().plusSeconds(3600);
            client.enqueue(TaskSpec.of("later").at(due).priority(1).payload("hello"));
            TaskInfo waiting = client.inspect("later");
            assertThat(waiting.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(waiting.score()).isEqualTo(due.toEpochMilli());
            assertThat(waiting.priority()).isEqualTo(1);
            assertThat(waiting.attempts()).isZero();
            assertThat(waiting.rawRecord()).endsWith("hello");

            client.enqueue(TaskSpec.of("a"));
            ClaimedTask a = claimOne(client);
            assertThat(client.inspect("a").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
            assertThat(client.cancel("a")).isEqualTo(CancelResult.IN_FLIGHT);
            sync(client.protocol().retry(a, Duration.ofHours(1), "boom", 5, false, KEEP_ALL));
            TaskInfo retried = client.inspect("a");
            assertThat(retried.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(retried.attempts()).as("attempts that ended without an ack").isEqualTo(1);
            assertThat(retried.lastError()).isEqualTo("boom");

            client.enqueue(TaskSpec.of("d").payload("gone"));
            int shard = client.protocol().shardOf("d");
            ClaimedTask d = sync(client.protocol().claim(shard, 10, Duration.ofMinutes(1), RateLimit.NONE)).tasks().stream()
                    .filter(t -> t.id().equals("d")).findFirst().orElseThrow();
            sync(client.protocol().retry(d, Duration.ZERO, "bad input", 5, true, KEEP_ALL));
            TaskInfo dead = client.inspect("d");
            assertThat(dead.state()).isEqualTo(TaskInfo.State.DEAD);
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.lastError()).isEqualTo("bad input");
            assertThat(dead.rawRecord()).endsWith("gone");

            Instant sooner = Instant.now().plusSeconds(60);
            RescheduleResult moved = client.reschedule("a", Schedule.at(sooner));
            assertThat(moved.status()).isEqualTo(RescheduleResult.Status.RESCHEDULED);
            assertThat(client.inspect("a").score()).isEqualTo(sooner.toEpochMilli());
            assertThat(client.inspect("a").attempts()).as("keeps its attempt").isEqualTo(1);
            assertThat(client.reschedule("d", Schedule.now()).status()).isEqualTo(RescheduleResult.Status.DEAD);
            assertThat(client.reschedule("nobody", Schedule.now()).status()).isEqualTo(RescheduleResult.Status.UNKNOWN);
            assertThat(client.cancel("later")).isEqualTo(CancelResult.CANCELLED);
            assertThat(client.inspect("later").state()).isEqualTo(TaskInfo.State.UNKNOWN);

            DeadLetterPage page = client.deadLetters(shard, 0, 10);
            assertThat(page.total()).isEqualTo(1);
            assertThat(page.entries()).singleElement().satisfies(e -> {
                assertThat(e.id()).isEqualTo("d");
                assertThat(e.attempts()).isEqualTo(1);
                assertThat(e.lastError()).isEqualTo("bad input");
                assertThat(e.rawRecord()).endsWith("gone");
            });
            assertThat(client.replayDead(List.of("d", "nobody"))).isEqualTo(1);
            assertThat(client.inspect("d").state()).as("due again").isEqualTo(TaskInfo.State.SCHEDULED);
            ClaimedTask again = sync(client.protocol().claim(shard, 10, Duration.ofMinutes(1), RateLimit.NONE)).tasks().get(0);
            assertThat(again.id()).isEqualTo("d");
            assertThat(again.attempt()).as("a fresh start").isEqualTo(1);
            sync(client.protocol().retry(again, Duration.ZERO, "bad again", 5, true, KEEP_ALL));
            assertThat(client.purgeDead(List.of("d"))).isEqualTo(1);
            assertThat(client.inspect("d").state()).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(client.enqueue(TaskSpec.of("d")).added()).as("a purged id is free again").isTrue();
            assertThat(client.stats().dead()).as("stats answer on protocol 3").isZero();
            assertThat(client.browse(BrowseQuery.of(BrowseState.DEAD)).tasks()).as("browse answers on protocol 3").isEmpty();
            assertThat(client.enqueue(TaskSpec.of("g").group("acme")).added()).as("a grouped task is taken").isTrue();
            assertThat(client.inspect("g").rawRecord()).contains("\"group\":\"acme\"");
        }
    }

    private static EnqueueResult.Status put(DelayQueueClient client, TaskSpec task, DuplicatePolicy policy) {
        return client.enqueueAll(List.of(task), policy).get(0).status();
    }

    @Test
    void everyDuplicatePolicyAnswersAsOnProtocolTwo() {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("p3policies").shards(1).build()) {
            Instant in1h = Instant.now().plusSeconds(3600);
            Instant in2h = in1h.plusSeconds(3600);
            assertThat(put(client, TaskSpec.of("r").at(in2h).payload("old"), DuplicatePolicy.REPLACE)).isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(put(client, TaskSpec.of("r").at(in1h).payload("new").priority(2), DuplicatePolicy.REPLACE))
                    .isEqualTo(EnqueueResult.Status.REPLACED);
            TaskInfo r = client.inspect("r");
            assertThat(r.score()).isEqualTo(in1h.toEpochMilli());
            assertThat(r.priority()).isEqualTo(2);
            assertThat(r.rawRecord()).endsWith("new");

            assertThat(put(client, TaskSpec.of("k").at(in1h).payload("first"), DuplicatePolicy.KEEP_EARLIER)).isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(put(client, TaskSpec.of("k").at(in2h).payload("second"), DuplicatePolicy.KEEP_EARLIER)).isEqualTo(EnqueueResult.Status.KEPT);
            Instant sooner = in1h.minusSeconds(1800);
            assertThat(put(client, TaskSpec.of("k").at(sooner).payload("third"), DuplicatePolicy.KEEP_EARLIER)).isEqualTo(EnqueueResult.Status.EARLIER);
            TaskInfo k = client.inspect("k");
            assertThat(k.score()).isEqualTo(sooner.toEpochMilli());
            assertThat(k.rawRecord()).as("keep-earlier keeps the record").endsWith("first");

            client.enqueue(TaskSpec.of("running"));
            ClaimedTask running = sync(client.protocol().claim(0, 10, Duration.ofMinutes(1), RateLimit.NONE)).tasks().get(0);
            assertThat(running.id()).isEqualTo("running");
            assertThat(put(client, TaskSpec.of("running"), DuplicatePolicy.REPLACE)).isEqualTo(EnqueueResult.Status.INFLIGHT);
            assertThat(put(client, TaskSpec.of("running"), DuplicatePolicy.KEEP_EARLIER)).isEqualTo(EnqueueResult.Status.INFLIGHT);
            sync(client.protocol().ack(0, List.of(running)));

            Instant past = Instant.now().minusSeconds(5);
            assertThat(put(client, TaskSpec.of("f").at(past), DuplicatePolicy.FUTURE_ONLY)).isEqualTo(EnqueueResult.Status.PAST);
            assertThat(put(client, TaskSpec.of("f").at(in1h), DuplicatePolicy.FUTURE_ONLY)).isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(put(client, TaskSpec.of("f").at(in2h), DuplicatePolicy.FUTURE_ONLY)).isEqualTo(EnqueueResult.Status.DUPLICATE);

            assertThat(put(client, TaskSpec.of("o"), DuplicatePolicy.ONCE)).isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(put(client, TaskSpec.of("fo").at(Instant.now().plusMillis(200)), DuplicatePolicy.FUTURE_ONCE)).isEqualTo(EnqueueResult.Status.ADDED);
            java.util.Set<String> done = new java.util.HashSet<>();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> {
                List<ClaimedTask> got = sync(client.protocol().claim(0, 10, Duration.ofMinutes(1), RateLimit.NONE)).tasks();
                if (!got.isEmpty()) {
                    sync(client.protocol().ack(0, got));
                }
                got.forEach(t -> done.add(t.id()));
                return done.containsAll(List.of("o", "fo"));
            });
            assertThat(put(client, TaskSpec.of("o"), DuplicatePolicy.ONCE)).as("acked and gone, still once").isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(put(client, TaskSpec.of("fo"), DuplicatePolicy.ONCE)).as("added ahead, acked, owed later").isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(put(client, TaskSpec.of("fp").at(past), DuplicatePolicy.FUTURE_ONCE)).isEqualTo(EnqueueResult.Status.PAST);
            assertThat(put(client, TaskSpec.of("fp"), DuplicatePolicy.ONCE)).as("a past one was not added: it may still fire").isEqualTo(EnqueueResult.Status.ADDED);

            assertThat(put(client, TaskSpec.of("db").debounce(Duration.ofSeconds(1), Duration.ofSeconds(5)), DuplicatePolicy.DEBOUNCE))
                    .isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(put(client, TaskSpec.of("db").debounce(Duration.ofSeconds(1), Duration.ofSeconds(5)), DuplicatePolicy.DEBOUNCE))
                    .isEqualTo(EnqueueResult.Status.REPLACED);
        }
    }
}
