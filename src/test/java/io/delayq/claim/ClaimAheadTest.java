package io.delayq.claim;

import io.delayq.task.Priority;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * claim.lua's optional ARGV[7] and ARGV[8] (claim ahead): after the due tasks, tasks due within the window, at most the
 * given number, in what room the batch leaves; never on a rate-limited shard or where groups wait.
 */
class ClaimAheadTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final ClaimAhead TEN_SECONDS = new ClaimAhead(Duration.ofSeconds(10), 100);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "ahead", 1);

    private static Instant in(long seconds) {
        return Instant.now().plusSeconds(seconds);
    }

    /** The next due time a claim reports while the earliest task still waiting is due at {@code dueAt}: that due time. */
    long nextDueAtFor(long dueAt) {
        return dueAt;
    }

    ClaimBatch claim(int batch, ClaimAhead ahead) {
        return sync(q.protocol().claim(0, batch, LEASE, RateLimit.NONE, java.util.UUID.randomUUID().toString(), ahead));
    }

    @Test
    void tasksDueWithinTheWindowFollowTheDueOnesAndNothingBeyondIt() {
        q.client().enqueue(TaskSpec.of("due-0").at(in(-20)));
        q.client().enqueue(TaskSpec.of("due-1").at(in(-10)));
        q.client().enqueue(TaskSpec.of("soon").at(in(3)));
        Instant later = in(60);
        q.client().enqueue(TaskSpec.of("later").at(later));

        ClaimBatch b = claim(10, TEN_SECONDS);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("due-0", "due-1", "soon");
        assertThat(b.dueCount()).isEqualTo(2);
        assertThat(b.lookedAhead()).isTrue();
        ClaimedTask soon = b.tasks().get(2);
        assertThat(soon.dueAt()).isGreaterThan(b.serverNow()).isLessThanOrEqualTo(b.serverNow() + 10_000);
        assertThat(soon.token()).as("the same lease as the due ones").isEqualTo(b.tasks().get(0).token());
        assertThat(b.nextDueAt()).isEqualTo(nextDueAtFor(later.toEpochMilli()));
        assertThat(q.inFlight(0).keySet()).containsExactlyInAnyOrder("due-0", "due-1", "soon");
        assertThat(q.waitingAt(0, 0).keySet()).containsExactly("later");
        // from the claim on the task is in flight: cancel answers so, as for a running task
        assertThat(q.client().cancel("soon")).isEqualTo(io.delayq.task.CancelResult.IN_FLIGHT);
    }

    @Test
    void dueTasksComeFirstInPriorityOrderThenTheTasksAheadByLevel() {
        q.client().enqueue(TaskSpec.of("due-normal").at(in(-30)));
        q.client().enqueue(TaskSpec.of("due-highest").at(in(-10)).priority(Priority.HIGHEST));
        q.client().enqueue(TaskSpec.of("soon-normal").at(in(2)));
        q.client().enqueue(TaskSpec.of("soon-high").at(in(4)).priority(Priority.HIGH));

        ClaimBatch b = claim(10, TEN_SECONDS);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("due-highest", "due-normal", "soon-high", "soon-normal");
        assertThat(b.dueCount()).isEqualTo(2);
    }

    @Test
    void theMaximumBoundsTheTasksAheadAndAFullBatchTakesNone() {
        q.client().enqueue(TaskSpec.of("due-0").at(in(-2)));
        q.client().enqueue(TaskSpec.of("due-1").at(in(-1)));
        for (int i = 0; i < 5; i++) {
            q.client().enqueue(TaskSpec.of("soon-" + i).at(in(2 + i)));
        }
        ClaimBatch capped = claim(10, new ClaimAhead(Duration.ofSeconds(10), 2));
        assertThat(capped.tasks()).extracting(ClaimedTask::id).containsExactly("due-0", "due-1", "soon-0", "soon-1");
        assertThat(capped.nextDueAt()).as("the first task left behind").isEqualTo(nextDueAtFor(q.client().inspect("soon-2").score()));

        // the tasks ahead come beyond the batch (they take no handler slot)... but not after a batch filled by due tasks
        q.client().enqueue(TaskSpec.of("due-2").at(in(-1)));
        assertThat(claim(2, new ClaimAhead(Duration.ofSeconds(10), 2)).tasks()).extracting(ClaimedTask::id)
                .containsExactly("due-2", "soon-2", "soon-3");
        q.client().enqueue(TaskSpec.of("due-3").at(in(-2)));
        q.client().enqueue(TaskSpec.of("due-4").at(in(-1)));
        ClaimBatch full = claim(2, TEN_SECONDS);
        assertThat(full.tasks()).extracting(ClaimedTask::id).containsExactly("due-3", "due-4");
        assertThat(full.dueCount()).isEqualTo(2);
    }

    @Test
    void withoutTheArgumentsNothingIsClaimedAhead() {
        q.client().enqueue(TaskSpec.of("due").at(in(-1)));
        Instant soon = in(3);
        q.client().enqueue(TaskSpec.of("soon").at(soon));
        ClaimBatch b = sync(q.protocol().claim(0, 10, LEASE, RateLimit.NONE, "old-caller"));
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("due");
        assertThat(b.nextDueAt()).isEqualTo(nextDueAtFor(soon.toEpochMilli()));
        // a window of 0 sends no arguments at all: the same claim as before
        assertThat(claim(10, new ClaimAhead(Duration.ZERO, 100)).tasks()).isEmpty();
        assertThat(q.client().inspect("soon").state()).isEqualTo(io.delayq.task.TaskInfo.State.SCHEDULED);
    }

    @Test
    void aMaximumOfNoTasksClaimsNothingAhead() {
        q.client().enqueue(TaskSpec.of("soon").at(in(3)));
        assertThat(claim(10, new ClaimAhead(Duration.ofSeconds(10), 0)).tasks()).as("no room for held tasks").isEmpty();
        assertThat(q.client().inspect("soon").state()).isEqualTo(io.delayq.task.TaskInfo.State.SCHEDULED);
    }

    @Test
    void aRateLimitedShardIsNotClaimedAhead() {
        q.client().enqueue(TaskSpec.of("due").at(in(-1)));
        q.client().enqueue(TaskSpec.of("soon").at(in(3)));
        ClaimBatch b = sync(q.protocol().claim(0, 10, LEASE, new RateLimit(100, 10), "limited", TEN_SECONDS));
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("due");
        assertThat(b.lookedAhead()).as("a token must not be spent before its task is due").isFalse();
    }

    @Test
    void aShardWhereGroupsWaitIsNotClaimedAhead() {
        q.client().enqueue(TaskSpec.of("due").at(in(-1)));
        q.client().enqueue(TaskSpec.of("soon").at(in(3)));
        q.client().enqueue(TaskSpec.of("grouped-soon").at(in(3)).group("g"));
        ClaimBatch b = claim(10, TEN_SECONDS);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactly("due");
        assertThat(b.lookedAhead()).isFalse();
    }

    @Test
    void aReplayedClaimAnswersTheSameTasksAheadToo() {
        q.client().enqueue(TaskSpec.of("due").at(in(-1)));
        q.client().enqueue(TaskSpec.of("soon").at(in(3)));
        ClaimBatch first = sync(q.protocol().claim(0, 10, LEASE, RateLimit.NONE, "req-1", TEN_SECONDS));
        q.client().enqueue(TaskSpec.of("soon-too").at(in(4)));
        ClaimBatch replay = sync(q.protocol().claim(0, 10, LEASE, RateLimit.NONE, "req-1", TEN_SECONDS));
        assertThat(replay.tasks()).isEqualTo(first.tasks());
        assertThat(first.tasks()).extracting(ClaimedTask::id).containsExactly("due", "soon");
        assertThat(q.client().inspect("soon-too").state()).isEqualTo(io.delayq.task.TaskInfo.State.SCHEDULED);
    }

    @Test
    void aPausedShardHandsOutNothingAheadEither() {
        q.client().enqueue(TaskSpec.of("soon").at(in(3)));
        q.client().pause("test");
        ClaimBatch b = claim(10, TEN_SECONDS);
        assertThat(b.tasks()).isEmpty();
        assertThat(b.nextDueAt()).isEqualTo(-1);
    }

    @Test
    void aNegativeWindowIsRefusedByName() {
        assertThatThrownBy(() -> new ClaimAhead(Duration.ofMillis(-1), 1)).hasMessageStartingWith("claimAhead: ");
        assertThatThrownBy(() -> new ClaimAhead(Duration.ofMillis(1), -1)).hasMessageStartingWith("claimAheadMax: ");
        assertThat(List.of(ClaimAhead.NONE.enabled(), TEN_SECONDS.enabled())).containsExactly(false, true);
    }
}
