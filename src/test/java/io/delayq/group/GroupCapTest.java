package io.delayq.group;

import io.delayq.InvalidInputException;
import io.delayq.claim.ClaimAhead;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.GroupCaps;
import io.delayq.claim.GroupWeights;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RunningPermits.Change;
import io.delayq.claim.RunningPermits;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Groups capped at N running across the fleet (protocol.md, "Groups capped at N running"): a claim hands out a capped
 * group's tasks only against permits taken in the queue's slot (group_permits.lua), names the capped groups it could
 * not serve, and moves their turn on so that the other groups are served; permits never exceed the cap, come back on
 * release and on expiry, and a re-sent take takes no more.
 */
class GroupCapTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final Duration HOLD = Duration.ofMinutes(6);
    private static final GroupCaps ACCT_2 = GroupCaps.parse(0, "overrides", "acct=2");

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "capped", 1);

    private RunningPermits permits() {
        return new RunningPermits(q.protocol().scripts(), "capped");
    }

    private void due(String group, int n) {
        GroupBacklog.due(q, group, n);
    }

    private ClaimBatch claim(int batch, GroupCaps caps, Map<String, Integer> held) {
        return sync(q.protocol().claim(0, batch, LEASE, RateLimit.NONE, UUID.randomUUID().toString(), ClaimAhead.NONE,
                GroupWeights.NONE, caps, held));
    }

    private static Map<String, Long> byGroup(ClaimBatch b) {
        return b.tasks().stream().collect(Collectors.groupingBy(t -> t.id().replaceAll("-.*", ""), Collectors.counting()));
    }

    private static List<String> fresh(int n) {
        return IntStream.range(0, n).mapToObj(i -> UUID.randomUUID().toString()).toList();
    }

    private List<String> take(String group, int cap, List<String> ids) {
        return sync(permits().apply(HOLD, List.of(Change.take(group, cap, ids)))).get(group);
    }

    private long running(String group) {
        return sync(q.redis().zcard(ShardKeys.running("capped", group)));
    }

    @Test
    void aClaimWithoutPermitsTakesNoTaskOfACappedGroupAndSaysHowManyItWanted() {
        due("acct", 10);
        due("free", 10);
        due("plain", 5);
        ClaimBatch b = claim(100, ACCT_2, Map.of());
        assertThat(byGroup(b)).containsEntry("free", 10L).containsEntry("plain", 5L).doesNotContainKey("acct");
        assertThat(b.wanted()).containsOnlyKeys("acct");
        assertThat(b.wanted().get("acct")).isPositive();
        // the capped group's tasks are still waiting, none in flight
        assertThat(q.waitingInGroup(0, "acct")).hasSize(10);
    }

    @Test
    void aClaimTakesOneTaskPerPermitHeldAndPermitsNeverExceedTheCap() {
        due("acct", 10);
        List<String> first = take("acct", 2, fresh(5));
        assertThat(first).hasSize(2);
        // another worker asks while both permits are out: nothing
        assertThat(take("acct", 2, fresh(3))).isEmpty();
        ClaimBatch b = claim(100, ACCT_2, Map.of("acct", first.size()));
        assertThat(byGroup(b)).containsEntry("acct", 2L);
        assertThat(running("acct")).isEqualTo(2);
        // a task settles: its permit goes back, and one more may run
        sync(permits().apply(HOLD, List.of(Change.release("acct", List.of(first.get(0))))));
        assertThat(take("acct", 2, fresh(3))).hasSize(1);
        assertThat(running("acct")).isEqualTo(2);
    }

    @Test
    void aReSentTakeTakesNoMoreThanTheFirst() {
        List<String> ids = fresh(3);
        assertThat(take("acct", 5, ids)).containsExactlyElementsOf(ids);
        // the same call again (Lettuce re-sends after a reconnect): the same three, not three more
        assertThat(take("acct", 5, ids)).containsExactlyElementsOf(ids);
        assertThat(running("acct")).isEqualTo(3);
    }

    @Test
    void aPermitNotExtendedExpiresSoAKilledWorkerLeaksNoSlot() {
        List<String> held = sync(permits().apply(Duration.ofMillis(300), List.of(Change.take("acct", 1, fresh(1))))).get("acct");
        assertThat(held).hasSize(1);
        assertThat(take("acct", 1, fresh(1))).isEmpty();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> take("acct", 1, List.of("after-expiry")).size() == 1);
        assertThat(sync(q.redis().zrange(ShardKeys.running("capped", "acct"), 0, -1))).containsExactly("after-expiry");
    }

    @Test
    void anExtendedPermitOutlivesItsFirstHoldAndAnExtensionNeverShortensIt() {
        List<String> held = sync(permits().apply(Duration.ofMillis(300), List.of(Change.take("acct", 1, fresh(1))))).get("acct");
        String key = ShardKeys.running("capped", "acct");
        long now = q.serverNow();
        sync(permits().apply(HOLD, List.of(Change.extend("acct", Map.of(held.get(0), now + 60_000)))));
        sync(permits().apply(HOLD, List.of(Change.extend("acct", Map.of(held.get(0), now + 1_000)))));
        assertThat(sync(q.redis().zscore(key, held.get(0)))).isEqualTo(now + 60_000.0);
        // long past the first hold, the slot is still taken
        await().atMost(Duration.ofSeconds(5)).until(() -> q.serverNow() > now + 600);
        assertThat(take("acct", 1, fresh(1))).isEmpty();
    }

    @Test
    void aClaimThatFindsOnlyBlockedGroupsAsksToBeWokenLaterNotAtOnce() {
        due("acct", 3);
        ClaimBatch b = claim(100, ACCT_2, Map.of());
        assertThat(b.tasks()).isEmpty();
        // the blocked group's turn moved 100 ms on: a worker does not spin on a group at its cap
        assertThat(b.nextDueAt()).isEqualTo(b.serverNow() + 100);
        // permits in hand serve the group at once, whatever its turn
        assertThat(byGroup(claim(100, ACCT_2, Map.of("acct", 2)))).containsEntry("acct", 2L);
    }

    @Test
    void blockedGroupsDoNotStarveTheOthersBeyondOneClaimsLook() {
        // 130 capped groups due: a claim looks at 100 groups; those it found blocked go behind, the next claim sees the rest
        GroupCaps every = GroupCaps.parse(1, "overrides", "");
        for (int g = 0; g < 130; g++) {
            due("g" + g, 1);
        }
        Set<String> seen = new HashSet<>(claim(500, every, Map.of()).wanted().keySet());
        assertThat(seen).hasSize(100);
        seen.addAll(claim(500, every, Map.of()).wanted().keySet());
        assertThat(seen).hasSize(130);
    }

    @Test
    void uncappedQueuesClaimAsBefore() {
        due("acct", 4);
        ClaimBatch b = claim(100, GroupCaps.NONE, Map.of());
        assertThat(byGroup(b)).containsEntry("acct", 4L);
        assertThat(b.wanted()).isEmpty();
    }

    @Test
    void badCapsNameTheFieldAndTheRule() {
        assertThatThrownBy(() -> GroupCaps.parse(0, "DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "acct=0"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES").hasMessageContaining("cap of group acct must be 1 to 10000, got 0");
        assertThatThrownBy(() -> GroupCaps.parse(0, "f", "acct=-2")).hasMessageContaining("must be 1 to 10000, got -2");
        assertThatThrownBy(() -> GroupCaps.parse(0, "f", "acct")).hasMessageContaining("group=cap entries");
        assertThatThrownBy(() -> GroupCaps.parse(0, "f", "a b=1")).hasMessageContaining("group may hold only");
        assertThatThrownBy(() -> GroupCaps.parse(0, "f", "a=1,a=2")).hasMessageContaining("names group a twice");
        assertThatThrownBy(() -> GroupCaps.parse(0, "f", "a=x")).hasMessageContaining("whole number");
        assertThat(GroupCaps.parse(3, "f", "a=1").capOf("a")).isEqualTo(1);
        assertThat(GroupCaps.parse(3, "f", "a=1").capOf("b")).isEqualTo(3);
        assertThat(GroupCaps.parse(0, "f", "a=1").capOf("b")).isZero();
    }
}
