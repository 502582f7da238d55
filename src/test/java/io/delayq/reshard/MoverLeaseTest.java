package io.delayq.reshard;

import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * One mover per queue: the mover lease (meta field {@code mover}) refuses a second mover while the first renews it,
 * naming the holder; a mover that stops renewing (stalled here, as a crashed or killed one stops) is taken over
 * once its lease ran out, the taker resumes and finishes the migration, and the stalled one, when it wakes, learns
 * it lost the lease and stops without writing. The CLI's kill -9 variant: ReshardKillNineProcessTest (worker/).
 */
class MoverLeaseTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 4);

    private HeldMover stalled;

    @AfterEach
    void release() {
        if (stalled != null) {
            stalled.close();
        }
    }

    private Mover.Params params(String holder, Duration lease, java.util.function.Consumer<Mover.Progress> progress) {
        return Mover.Params.of(q.protocol(), 16, progress).withBatch(5).withHolder(holder).withLease(lease);
    }

    @Test
    void aSecondMoverIsRefusedNamingTheHolderAndTakesOverOnceTheHolderStopsRenewing() throws Exception {
        for (int i = 0; i < 400; i++) {
            q.client().enqueue(TaskSpec.of("order-" + i).after(Duration.ofMinutes(10)));
        }
        // held inside its progress report, as a stall (GC pause, SIGSTOP, a dead process) holds it: no renewals from here on
        stalled = HeldMover.start(progress -> params("mover-a on host-1", Duration.ofSeconds(3), progress),
                p -> p.phase().equals("moving") && p.moved() > 20);

        Mover second = new Mover(params("mover-b on host-2", Duration.ofSeconds(3), p -> { }));
        assertThatThrownBy(second::run).isInstanceOf(MoverBusyException.class)
                .hasMessageContaining("a migration from 4 to 16 shards is running: queue 'orders' is being resharded by mover-a on host-1")
                .satisfies(e -> {
                    assertThat(((MoverBusyException) e).holder()).isEqualTo("mover-a on host-1");
                    assertThat(((MoverBusyException) e).lost()).isFalse();
                    assertThat(((MoverBusyException) e).remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(3));
                });
        assertThat(sync(q.redis().hget(ShardKeys.meta("orders"), "mover"))).endsWith(" mover-a on host-1");

        // the holder renews no more: once its lease ran out, the next mover takes it over and finishes the migration
        AtomicReference<Mover.Result> taken = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).until(() -> {
            try {
                taken.set(new Mover(params("mover-b on host-2", Duration.ofSeconds(3), p -> { })).run());
                return true;
            } catch (MoverBusyException e) {
                return false;
            }
        });
        assertThat(taken.get().resumed()).isTrue();
        assertThat(taken.get().to()).isEqualTo(16);
        assertThat(sync(q.protocol().refreshLayout()).migrating()).isFalse();
        assertThat(sync(q.redis().hget(ShardKeys.meta("orders"), "mover"))).as("given back at the end").isNull();
        for (int i = 0; i < 400; i++) {
            assertThat(q.client().inspect("order-" + i).shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("order-" + i, 16));
        }

        // the stalled mover wakes up: its next renewal finds the lease taken (and given back since), so it stops
        stalled.release();
        assertThatThrownBy(() -> stalled.result().get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(MoverBusyException.class)
                .cause().hasMessageContaining("took over the reshard lease while this one had not renewed it")
                .satisfies(e -> assertThat(((MoverBusyException) e).lost()).isTrue());
        assertThat(sync(q.protocol().refreshLayout()).history()).containsExactly(4, 16);
    }

    @Test
    void aMoverStoppedByAnInterruptGivesItsLeaseBackSoTheNextStartsAtOnce() throws Exception {
        for (int i = 0; i < 400; i++) {
            q.client().enqueue(TaskSpec.of("order-" + i).after(Duration.ofMinutes(10)));
        }
        // an operator stops its migration job by interrupting the mover's thread (MigrationJob.stop)
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread runner = new Thread(() -> {
            try {
                new Mover(params("operator pod-0", Duration.ofSeconds(30), p -> {
                    if (p.phase().equals("moving") && p.moved() > 20 && !Thread.currentThread().isInterrupted()) {
                        // Redis holds its answers 300 ms: the give-back's answer comes after the mover sees its interrupt
                        sync(q.redis().clientPause(300));
                        Thread.currentThread().interrupt();
                    }
                })).run();
            } catch (RuntimeException e) {
                ended.set(e);
            }
        });
        runner.start();
        runner.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(runner.isAlive()).isFalse();
        assertThat(ended.get()).as("stopped half-way").isNotNull();
        assertThat(sync(q.redis().hget(ShardKeys.meta("orders"), "mover"))).as("given back although interrupted").isNull();
        // another holder resumes it at once, not after the 30 s lease
        assertThat(new Mover(params("operator pod-1", Duration.ofSeconds(30), p -> { })).run().resumed()).isTrue();
    }

    @Test
    void theSameHolderTakesItsOwnLeaseBackAtOnceAfterACrash_andTheLeaseRulesAreChecked() {
        // a mover that crashed without giving the lease back (Redis away at the end): its own next run is not refused
        assertThat(sync(new ReshardScripts(q.protocol().scope()).moverLease("take", "operator pod-0", Duration.ofSeconds(30))).held()).isTrue();
        assertThat(new Mover(params("operator pod-0", Duration.ofSeconds(30), p -> { })).run().to()).isEqualTo(16);
        // another holder's renewal never takes a lease, and a give-back of someone else's lease changes nothing
        assertThat(sync(new ReshardScripts(q.protocol().scope()).moverLease("take", "a", Duration.ofSeconds(30))).held()).isTrue();
        assertThat(sync(new ReshardScripts(q.protocol().scope()).moverLease("renew", "b", Duration.ofSeconds(30))))
                .satisfies(l -> assertThat(l.held()).isFalse()).satisfies(l -> assertThat(l.holder()).isEqualTo("a"));
        sync(new ReshardScripts(q.protocol().scope()).moverLease("give-back", "b", Duration.ZERO));
        assertThat(sync(q.redis().hget(ShardKeys.meta("orders"), "mover"))).endsWith(" a");
        assertThatThrownBy(() -> sync(new ReshardScripts(q.protocol().scope()).moverLease("take", "", Duration.ofSeconds(1))))
                .hasMessageContaining("holder non-empty text");
        assertThatThrownBy(() -> Mover.Params.of(q.protocol(), 16, p -> { }).withHolder("two\nlines"))
                .hasMessageContaining("holder");
        assertThat(List.of(Mover.Params.defaultHolder())).allSatisfy(h -> assertThat(h).contains(" pid " + ProcessHandle.current().pid() + " #"));
    }
}
