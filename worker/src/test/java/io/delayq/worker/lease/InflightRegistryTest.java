package io.delayq.worker.lease;

import io.delayq.claim.ClaimedTask;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The registry, kept per claim answer, still answers per task: what is held, how many, each removed once. */
class InflightRegistryTest {
    private static List<ClaimedTask> claim(int shard, String prefix, int n) {
        List<ClaimedTask> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(new ClaimedTask(shard, prefix + i, 1000, 1, 5000, null));
        }
        return tasks;
    }

    @Test
    void holdsEveryTaskOfEveryClaimUntilItIsRemoved() {
        InflightRegistry registry = new InflightRegistry();
        List<Leased> first = registry.add(claim(0, "a-", 3));
        List<Leased> second = registry.add(claim(1, "b-", 2));
        assertThat(first).extracting(Leased::id).containsExactly("a-0", "a-1", "a-2");
        assertThat(registry.size()).isEqualTo(5);
        assertThat(registry.all()).extracting(Leased::id).containsExactlyInAnyOrder("a-0", "a-1", "a-2", "b-0", "b-1");

        registry.remove(first.get(1));
        registry.remove(first.get(1)); // a second removal of the same task changes nothing
        registry.remove(second.get(0));
        assertThat(registry.size()).isEqualTo(3);
        assertThat(registry.all()).extracting(Leased::id).containsExactlyInAnyOrder("a-0", "a-2", "b-1");

        first.forEach(registry::remove);
        second.forEach(registry::remove);
        assertThat(registry.size()).isZero();
        assertThat(registry.all()).isEmpty();
    }

    @Test
    void anAckCallsTasksAreRemovedTogetherEachOnceWhateverClaimTheyCameFrom() {
        InflightRegistry registry = new InflightRegistry();
        List<Leased> first = registry.add(claim(0, "a-", 3));
        List<Leased> second = registry.add(claim(0, "b-", 2));
        registry.remove(first.get(0));
        // one ack call: tasks of both claims, one of them already removed, one listed twice
        registry.removeAll(List.of(first.get(0), first.get(1), second.get(0), second.get(0)));
        assertThat(registry.size()).isEqualTo(2);
        assertThat(registry.all()).extracting(Leased::id).containsExactlyInAnyOrder("a-2", "b-1");
        registry.removeAll(List.of(first.get(2), second.get(1), new Leased(new ClaimedTask(0, "stray", 1000, 1, 5000, null))));
        assertThat(registry.size()).isZero();
        assertThat(registry.all()).isEmpty();
    }

    @Test
    void aTaskClaimedAgainUnderTheSameIdIsHeldTwiceUntilEachIsRemoved() {
        // a lease lost and the task re-delivered to this worker while the first run is still settling
        InflightRegistry registry = new InflightRegistry();
        Leased old = registry.add(new ClaimedTask(0, "same", 1000, 1, 5000, null));
        Leased again = registry.add(new ClaimedTask(0, "same", 1000, 2, 9000, null));
        registry.remove(old);
        assertThat(registry.all()).containsExactly(again);
        assertThat(registry.size()).isEqualTo(1);
    }

    @Test
    void anEmptyClaimHoldsNothingAndALeaseNeverAddedIsNotCounted() {
        InflightRegistry registry = new InflightRegistry();
        assertThat(registry.add(List.of())).isEmpty();
        registry.remove(new Leased(new ClaimedTask(0, "stray", 1000, 1, 5000, null)));
        assertThat(registry.size()).isZero();
        assertThat(registry.all()).isEmpty();
    }
}
