package io.delayq.group;

import io.delayq.InvalidInputException;
import io.delayq.claim.ClaimAhead;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.GroupWeights;
import io.delayq.claim.RateLimit;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Weights in the claim's round robin (protocol.md, "Groups", Weights): while groups have tasks due, each gets a share
 * of a claim in proportion to its weight; a group not named, and the ungrouped tasks, weigh 1; what a group cannot use
 * goes to the others, so no group waits while another's weight is higher.
 */
class GroupWeightsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final GroupWeights PAYING_3 = GroupWeights.parse("weights", "paying=3");

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "tenants", 1);

    private void due(String group, int n) {
        GroupBacklog.due(q, group, n);
    }

    private Map<String, Long> claim(int batch, GroupWeights weights) {
        ClaimBatch b = sync(q.protocol().claim(0, batch, LEASE, RateLimit.NONE, UUID.randomUUID().toString(), ClaimAhead.NONE, weights));
        return b.tasks().stream().collect(Collectors.groupingBy(t -> t.id().replaceAll("-.*", ""), Collectors.counting()));
    }

    @Test
    void aGroupOfWeightThreeGetsThreeTasksOfAClaimForEachOfAGroupOfWeightOne() {
        due("paying", 400);
        due("trial", 400);
        for (int i = 0; i < 3; i++) {
            assertThat(claim(100, PAYING_3)).containsEntry("paying", 75L).containsEntry("trial", 25L);
        }
        // without weights the same claim is shared equally
        assertThat(claim(100, GroupWeights.NONE)).containsEntry("paying", 50L).containsEntry("trial", 50L);
    }

    @Test
    void theUngroupedTasksWeighOneAndAGroupNotNamedWeighsOne() {
        due("plain", 100);
        due("paying", 100);
        due("trial", 100);
        assertThat(claim(50, PAYING_3)).containsEntry("plain", 10L).containsEntry("paying", 30L).containsEntry("trial", 10L);
    }

    @Test
    void whatAHeavyGroupCannotUseGoesToTheOthersAndALightGroupIsNeverStarved() {
        due("paying", 30);
        due("trial", 400);
        // paying has only 30 due: its share of 75 is cut to 30, trial fills the rest
        assertThat(claim(100, PAYING_3)).containsEntry("paying", 30L).containsEntry("trial", 70L);
        due("paying", 400);
        // with a weight of 100 against 1, the light group still gets its one task of every claim
        GroupWeights heavy = GroupWeights.parse("weights", "paying=100");
        for (int i = 0; i < 3; i++) {
            assertThat(claim(50, heavy)).containsEntry("trial", 1L).containsEntry("paying", 49L);
        }
    }

    @Test
    void badWeightsAreRefusedNamingTheFieldAndTheRule() {
        assertThatThrownBy(() -> GroupWeights.parse("DELAYQ_GROUP_WEIGHTS", "paying=0")).isInstanceOf(InvalidInputException.class)
                .hasMessage("DELAYQ_GROUP_WEIGHTS: weight of group paying must be 1 to 100, got 0");
        assertThatThrownBy(() -> GroupWeights.parse("DELAYQ_GROUP_WEIGHTS", "paying=3,trial")).isInstanceOf(InvalidInputException.class)
                .hasMessage("DELAYQ_GROUP_WEIGHTS: must be group=weight entries separated by commas (e.g. paying=3,trial=1), got \"trial\"");
        assertThatThrownBy(() -> GroupWeights.parse("DELAYQ_GROUP_WEIGHTS", "ten ant=2")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("DELAYQ_GROUP_WEIGHTS: group may hold only ASCII letters, digits and - _ . : @ /, got ' ' at offset 3");
        assertThatThrownBy(() -> GroupWeights.parse("DELAYQ_GROUP_WEIGHTS", "a=2,a=3")).isInstanceOf(InvalidInputException.class)
                .hasMessage("DELAYQ_GROUP_WEIGHTS: names group a twice");
        assertThatThrownBy(() -> GroupWeights.parse("DELAYQ_GROUP_WEIGHTS", "a=x")).isInstanceOf(InvalidInputException.class)
                .hasMessage("DELAYQ_GROUP_WEIGHTS: weight of group a must be a whole number from 1 to 100, got \"x\"");
        String many = IntStream.range(0, 101).mapToObj(i -> "g" + i + "=2").collect(Collectors.joining(","));
        assertThatThrownBy(() -> GroupWeights.parse("DELAYQ_GROUP_WEIGHTS", many)).isInstanceOf(InvalidInputException.class)
                .hasMessage("DELAYQ_GROUP_WEIGHTS: may name at most 100 groups, got 101");
        assertThat(GroupWeights.parse("w", " paying = 3 , trial=1 ").wire()).isEqualTo("paying=3");
        assertThat(GroupWeights.parse("w", "").any()).isFalse();
    }
}
