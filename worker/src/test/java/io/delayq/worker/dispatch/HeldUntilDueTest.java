package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
import io.delayq.shard.ShardRange;
import io.delayq.worker.lease.Leased;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stop sequence's wait for held tasks: a stopping worker shuts its handler pool down as soon as
 * {@link HeldUntilDue#awaitEmpty} returns, so it must not return while a due group is still on its way to the pool
 * (that group was refused there and left in flight until its lease ran out).
 */
class HeldUntilDueTest {
    private HeldUntilDue held;

    @AfterEach
    void close() {
        if (held != null) {
            held.close();
        }
    }

    private static Leased task(String id, long dueAt) {
        return new Leased(new ClaimedTask(0, id, dueAt, 1, dueAt + 30_000, "0"));
    }

    @Test
    void theWaitForHeldTasksEndsOnlyAfterTheirHandOverReturned() throws Exception {
        CountDownLatch inFire = new CountDownLatch(1);
        CountDownLatch handOverMayReturn = new CountDownLatch(1);
        List<String> handedOver = new CopyOnWriteArrayList<>();
        ServerClock clock = new ServerClock(System::currentTimeMillis, new ShardRange(0, 0));
        held = new HeldUntilDue(10, clock, group -> {
            inFire.countDown();
            try {
                handOverMayReturn.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            group.forEach(l -> handedOver.add(l.id()));
        });
        long now = clock.nowMillis();
        held.hold(0, List.of(task("a", now + 20), task("b", now + 20)));
        assertThat(held.size()).isEqualTo(2);
        assertThat(held.room()).isEqualTo(8);

        assertThat(inFire.await(5, TimeUnit.SECONDS)).as("the group came due").isTrue();
        assertThat(held.awaitEmpty(Duration.ofMillis(200))).as("a group still being handed over counts as held").isFalse();
        assertThat(held.size()).isEqualTo(2);

        handOverMayReturn.countDown();
        assertThat(held.awaitEmpty(Duration.ofSeconds(5))).isTrue();
        assertThat(handedOver).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aHandOverThatThrowsStillCountsItsGroupOff() {
        ServerClock clock = new ServerClock(System::currentTimeMillis, new ShardRange(0, 0));
        held = new HeldUntilDue(10, clock, group -> {
            throw new java.util.concurrent.RejectedExecutionException("pool shut down");
        });
        held.hold(0, List.of(task("a", clock.nowMillis() + 5)));
        await().atMost(Duration.ofSeconds(5)).until(() -> held.size() == 0);
        assertThat(held.room()).isEqualTo(10);
    }
}
