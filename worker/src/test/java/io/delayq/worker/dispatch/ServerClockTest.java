package io.delayq.worker.dispatch;

import io.delayq.shard.ShardRange;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wake-ups planned from claim answers are never before the shard's server clock reads the due time, and (with
 * answers at many phases of the server's millisecond) late by no more than a round trip. The clocks are simulated:
 * a server clock that is the local monotonic clock plus an unknown offset, read by the script in whole ms.
 */
class ServerClockTest {
    private static final long MS = 1_000_000L;

    /** A simulated Redis server: its clock is local nanos + offset; a claim script reads it between sending and answer. */
    private static final class Server {
        long offsetNanos;

        Server(long offsetNanos) {
            this.offsetNanos = offsetNanos;
        }

        long readsAt(long localNanos) {
            return Math.floorDiv(localNanos + offsetNanos, MS);
        }

        /** How far after the server's clock read {@code dueMillis} the local instant {@code atNanos} is (negative: early). */
        long lateBy(long atNanos, long dueMillis) {
            return atNanos + offsetNanos - dueMillis * MS;
        }
    }

    /** One claim: sent at {@code sent}, run by the script within 0.3 ms, answered within 0.3 ms after; returns the answer time. */
    private static long claim(ServerClock clock, int shard, Server server, long sent, Random random) {
        long ran = sent + random.nextInt(300_000);
        long answered = ran + random.nextInt(300_000);
        clock.observe(shard, server.readsAt(ran), sent, answered);
        return answered;
    }

    @Test
    void aWakeUpIsNeverBeforeTheServerClockReadsTheDueTimeAndSoonTight() {
        Random random = new Random(17);
        for (int trial = 0; trial < 50; trial++) {
            Server server = new Server(1_764_600_000_000L * MS + random.nextInt(1_000_000_000));
            ServerClock clock = new ServerClock(() -> 0L, new ShardRange(0, 0));
            long t = random.nextInt(1_000_000_000);
            for (int i = 0; i < 200; i++) {
                long answered = claim(clock, 0, server, t, random);
                long due = server.readsAt(answered) + 1 + random.nextInt(50);
                long wake = clock.nanoTimeAt(0, due);
                assertThat(server.lateBy(wake, due)).as("trial %d claim %d", trial, i).isGreaterThanOrEqualTo(0);
                if (i >= 100) {
                    // one answer alone leaves up to a ms (plus the round trip) of doubt; a hundred narrow it to the fastest answer
                    assertThat(server.lateBy(wake, due)).as("trial %d claim %d", trial, i).isLessThan(400_000);
                }
                t = answered + random.nextInt(3_000_000);
            }
        }
    }

    @Test
    void aServerClockSetBackIsFollowedFromTheFirstAnswerThatContradictsTheBound() {
        Random random = new Random(3);
        Server server = new Server(5_000 * MS);
        ServerClock clock = new ServerClock(() -> 0L, new ShardRange(0, 0));
        long t = 0;
        for (int i = 0; i < 50; i++) {
            t = claim(clock, 0, server, t, random) + 2 * MS;
        }
        server.offsetNanos -= 40 * MS;
        for (int i = 0; i < 50; i++) {
            long answered = claim(clock, 0, server, t, random);
            long due = server.readsAt(answered) + 2;
            assertThat(server.lateBy(clock.nanoTimeAt(0, due), due)).isGreaterThanOrEqualTo(0).isLessThan(2 * MS);
            t = answered + 2 * MS;
        }
    }

    @Test
    void eachShardKeepsTheClockOfItsOwnServer() {
        // a Redis Cluster: shards 4 and 5 on primaries whose clocks are 30 ms apart
        Random random = new Random(5);
        Server fast = new Server(9_000 * MS + 30 * MS);
        Server slow = new Server(9_000 * MS);
        ServerClock clock = new ServerClock(() -> 0L, new ShardRange(4, 5));
        long t = 0;
        for (int i = 0; i < 100; i++) {
            t = claim(clock, 4, fast, t, random) + MS;
            long answered = claim(clock, 5, slow, t, random);
            long due = slow.readsAt(answered) + 3;
            assertThat(slow.lateBy(clock.nanoTimeAt(5, due), due)).isGreaterThanOrEqualTo(0).isLessThan(2 * MS);
            t = answered + MS;
        }
    }

    @Test
    void beforeAnyAnswerTheWallClockIsTheEstimate() {
        ServerClock clock = new ServerClock(() -> 50_000L, new ShardRange(0, 1));
        long before = System.nanoTime();
        long wake = clock.nanoTimeAt(1, 51_000L);
        long after = System.nanoTime();
        assertThat(wake).isBetween(before + 1_000 * MS, after + 1_000 * MS);
        assertThat(clock.nowMillis()).isEqualTo(50_000L);
        clock.observe(0, 80_000L, 0, 1);
        assertThat(clock.nowMillis()).as("the server clock as the wall clock plus the last answer's offset").isEqualTo(80_000L);
    }
}
