package io.delayq.worker.dispatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class HandlerPoolTest {
    private static final long RAMP_AFTER = TimeUnit.MILLISECONDS.toNanos(1);
    private static final ThreadFactory THREADS = r -> {
        Thread t = new Thread(r, "pool-test");
        t.setDaemon(true);
        return t;
    };
    private HandlerPool pool;

    @AfterEach
    void stop() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Test
    void blockingHandlersRampUpToTheLimitAndNeverBeyond() {
        pool = new HandlerPool(16, RAMP_AFTER, THREADS);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 40; i++) {
            pool.execute(() -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
                done.incrementAndGet();
            });
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 16);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> done.get() == 40);
        assertThat(mostAtOnce.get()).isEqualTo(16);
        assertThat(pool.threadCount()).isEqualTo(16);
    }

    @Test
    void aTaskArrivingWhileEveryThreadIsBusyGetsAThreadOfItsOwn() {
        pool = new HandlerPool(4, TimeUnit.SECONDS.toNanos(3600), THREADS);   // no ramp: only the hand-over can start it
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        pool.execute(second::countDown);
        await().atMost(Duration.ofSeconds(10)).until(() -> second.getCount() == 0);
        release.countDown();
    }

    @Test
    void fastHandlersRunOnAFewThreadsInsteadOfOnePerSlot() throws InterruptedException {
        pool = new HandlerPool(1000, RAMP_AFTER, THREADS);
        for (int batch = 1; batch <= 100; batch++) {
            CountDownLatch done = new CountDownLatch(100);
            for (int i = 0; i < 100; i++) {
                pool.execute(done::countDown);
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
        // a pool with a thread per slot would have started 1,000 threads for these 10,000 tasks
        assertThat(pool.threadCount()).isLessThan(200);
    }

    @Test
    void aDeepQueueThatKeepsMovingGetsNoMoreThreadsFromTheRamp() throws InterruptedException {
        // a worker's claims and prefetch buffer keep thousands of tasks queued, so the oldest has always waited past
        // rampAfter; fast handlers drain them on a few threads, and doubling the awake threads (to every slot) only
        // made them contend for the lock
        pool = new HandlerPool(64, RAMP_AFTER, THREADS);
        byte[] record = new byte[512];
        for (int round = 0; round < 5; round++) {
            CountDownLatch done = new CountDownLatch(100_000);
            List<Runnable> claims = new ArrayList<>(100_000);
            for (int i = 0; i < 100_000; i++) {
                claims.add(() -> {
                    // a fast handler: a little CPU, no blocking
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    crc.update(record);
                    if (crc.getValue() != 0) {
                        done.countDown();
                    }
                });
            }
            pool.executeAll(claims);
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(pool.threadCount()).isLessThan(32);
    }

    @Test
    void aClaimsTasksHandedOverTogetherAllRunAndSlowOnesGetMoreThreads() throws InterruptedException {
        pool = new HandlerPool(8, RAMP_AFTER, THREADS);
        for (int round = 0; round < 50; round++) {
            CountDownLatch done = new CountDownLatch(200);
            List<Runnable> claim = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                claim.add(done::countDown);
            }
            pool.executeAll(claim);
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
        // eight tasks that block: handed over at once, the ramp wakes a thread for each of them
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(8);
        List<Runnable> slow = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            slow.add(() -> {
                running.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        pool.executeAll(slow);
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        release.countDown();
    }

    @Test
    void aShutDownPoolRefusesAClaimsTasksAllTogether() {
        pool = new HandlerPool(2, RAMP_AFTER, THREADS);
        pool.shutdown();
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> pool.executeAll(List.of(ran::incrementAndGet, ran::incrementAndGet)))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(ran.get()).isZero();
    }

    @Test
    void shutdownRunsWhatIsQueuedThenRefusesNewWork() throws InterruptedException {
        pool = new HandlerPool(2, RAMP_AFTER, THREADS);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            pool.execute(() -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            });
        }
        pool.shutdown();
        assertThatThrownBy(() -> pool.execute(done::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
        assertThat(pool.isTerminated()).isFalse();
        release.countDown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done.get()).isEqualTo(10);
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void shutdownNowInterruptsRunningHandlersAndHandsBackTheQueued() throws InterruptedException {
        pool = new HandlerPool(1, RAMP_AFTER, THREADS);
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        pool.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        pool.execute(() -> { });
        pool.execute(() -> { });
        List<Runnable> never = pool.shutdownNow();
        assertThat(never).hasSize(2);
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted.get()).isEqualTo(1);
    }
}
