package io.delayq.claim;

import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.KillArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce re-sends the commands that were in flight when its connection dropped. A claim that ran
 * on the server but whose answer was lost runs a second time: without protection its first batch
 * would sit in flight, handed to nobody, until the lease ends. The claim request key (claim.lua
 * KEYS[11]) makes the second run answer the first run's tasks.
 *
 * Lettuce also fails (rather than re-sends) the oldest command when the connection is reset; the
 * worker then asks again under the same request id, which the key answers the same way.
 *
 * <p>The test kills the claiming connection over and over (CLIENT KILL from another connection)
 * while claims are pipelined on it, and proves with the server's command counters that claims did
 * reach Redis more than once. A control run with the same script minus the request-key lookup strands tasks under
 * the same load, which shows that the mechanism is what makes the first run pass.
 */
class ClaimReplayTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final int TASKS = 10_000;
    private static final int BATCH = 10;
    private static final int LANES = 8;              // claims in flight at once on the one connection
    private static final int KILL_EVERY = 4;         // completed claims between two kills
    private static final Duration LEASE = Duration.ofMinutes(5);  // never expires during the test
    private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");

    /** What one run observed. */
    record Outcome(Map<String, Integer> deliveries, long acked, long kills, long claimsSent, long acksSent,
                   long serverEvalshaCalls, long inflightLeft, long dueLeft, long failedClaims) {
        /**
         * Script runs beyond one per claim the test made: Lettuce re-sent a claim after a kill, or
         * the test asked again under the same request id after a claim failed. Either way the same
         * claim reached Redis more than once, which is the situation the request key must handle.
         */
        long extraRunsOnServer() {
            return serverEvalshaCalls - claimsSent - acksSent;
        }

        @Override
        public String toString() {
            return "tasks delivered " + deliveries.size() + ", acked " + acked + ", kills " + kills + ", claims sent "
                    + claimsSent + " (failed " + failedClaims + "), extra runs on the server " + extraRunsOnServer()
                    + ", left in flight " + inflightLeft + ", left due " + dueLeft;
        }
    }

    @Test
    void replayedClaimsNeitherStrandNorDuplicateTasks() {
        try (TestQueue q = TestQueue.open(redis.url(), "replay", 1);
             RedisEndpoint claimer = RedisEndpoint.connect(redis.url() + "?clientName=claimer")) {
            QueueProtocol p = new QueueProtocol(claimer, "replay", 1);
            Outcome o = run(q, requestId -> p.claim(0, BATCH, LEASE, RateLimit.NONE, requestId));
            System.out.println("with the request key: " + o);

            assertThat(o.kills()).as("connections killed").isGreaterThanOrEqualTo(20);
            assertThat(o.extraRunsOnServer()).as("claims Redis ran more often than the test asked").isPositive();
            assertThat(o.deliveries()).hasSize(TASKS);
            assertThat(o.deliveries().values()).as("deliveries per task").containsOnly(1);
            assertThat(o.acked()).isEqualTo(TASKS);
            assertThat(o.inflightLeft()).isZero();
            assertThat(o.dueLeft()).isZero();
        }
    }

    @Test
    void withoutTheRequestKeyTheSameLoadStrandsTasks() {
        try (TestQueue q = TestQueue.open(redis.url(), "replay", 1);
             RedisEndpoint claimer = RedisEndpoint.connect(redis.url() + "?clientName=claimer")) {
            String source = LuaScript.CLAIM.source();
            String unprotected = source.replace("local replay = redis.call('GET', KEYS[11])", "local replay = false");
            assertThat(unprotected).isNotEqualTo(source);
            String sha = get(claimer.commands().scriptLoad(unprotected));
            Outcome o = run(q, requestId -> unprotectedClaim(claimer.commands(), sha, q.keys(0), requestId));
            System.out.println("without the request key: " + o);

            assertThat(o.extraRunsOnServer()).as("claims Redis ran more often than the test asked").isPositive();
            // a claim that ran twice handed its first batch to nobody: those tasks sit in flight until the lease ends
            assertThat(o.inflightLeft()).as("stranded tasks").isPositive();
            assertThat(o.deliveries()).hasSize((int) (TASKS - o.inflightLeft()));
            assertThat(o.dueLeft()).isZero();
        }
    }

    /** The claim script without the replay lookup, called the way QueueProtocol calls it. */
    @SuppressWarnings("unchecked")
    private static CompletionStage<ClaimBatch> unprotectedClaim(RedisClusterAsyncCommands<String, String> redis, String sha,
                                                                ShardKeys keys, String requestId) {
        List<String> k = new ArrayList<>(keys.scriptKeys());
        k.add(keys.claimRequest(requestId));
        return redis.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, k.toArray(String[]::new),
                String.valueOf(BATCH), String.valueOf(LEASE.toMillis()), "0", "0").thenApply(reply -> {
            long token = (Long) reply.get(2);
            int n = ((Long) reply.get(3)).intValue();
            List<ClaimedTask> tasks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int at = 4 + 4 * i;
                tasks.add(new ClaimedTask(0, (String) reply.get(at), (Long) reply.get(at + 1),
                        ((Long) reply.get(at + 2)).intValue(), token, (String) reply.get(at + 3)));
            }
            return new ClaimBatch(0, (Long) reply.get(0), (Long) reply.get(1), tasks);
        });
    }

    /**
     * Drains the shard with {@link #LANES} claims in flight on the claimer connection at all times
     * and kills that connection after every {@link #KILL_EVERY} answers. Acks go over another
     * connection, which is never killed, so every ack answer is reliable. Like the worker's claim
     * loop, a lane whose claim failed (Lettuce fails the oldest command on a connection reset
     * instead of re-sending it) asks again under the same request id.
     */
    private Outcome run(TestQueue q, Function<String, CompletionStage<ClaimBatch>> claim) {
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            specs.add(TaskSpec.of("task-" + i).payload("p" + i));
        }
        q.client().enqueueAll(specs);
        TestQueue.sync(q.protocol().scripts().loadAll());   // no NOSCRIPT round trips to blur the counts
        RedisClusterAsyncCommands<String, String> admin = redis.admin().commands();
        get(admin.configResetstat());

        Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        AtomicLong acked = new AtomicLong();
        AtomicLong kills = new AtomicLong();
        AtomicLong claimsSent = new AtomicLong();
        AtomicLong acksSent = new AtomicLong();
        AtomicInteger answers = new AtomicInteger();
        AtomicLong failedClaims = new AtomicLong();
        Queue<CompletableFuture<?>> pending = new ConcurrentLinkedQueue<>();
        ExecutorService lanesThread = Executors.newSingleThreadExecutor();

        Runnable killClaimer = () -> pending.add(admin.clientList().thenComposeAsync(list -> {
            Matcher m = Pattern.compile("(?m)^id=(\\d+) .*name=claimer ").matcher(list);
            return m.find() ? admin.clientKill(KillArgs.Builder.id(Long.parseLong(m.group(1))))
                    : CompletableFuture.completedFuture(0L);
        }, lanesThread).thenAccept(killed -> kills.addAndGet(killed)).toCompletableFuture());

        class Lane {
            final CompletableFuture<Void> done = new CompletableFuture<>();

            void next(String requestId) {
                claimsSent.incrementAndGet();
                // continue on the test's own thread: issuing commands from Lettuce's threads while it
                // reconnects can wedge its endpoint lock (lettuce issues 2905 / 3880)
                claim.apply(requestId).whenCompleteAsync((batch, error) -> {
                    try {
                        handle(requestId, batch, error);
                    } catch (RuntimeException | Error e) {
                        done.completeExceptionally(e);
                    }
                }, lanesThread);
            }

            private void handle(String requestId, ClaimBatch batch, Throwable error) {
                if (error != null) {
                    failedClaims.incrementAndGet();
                    next(requestId);
                    return;
                }
                for (ClaimedTask t : batch.tasks()) {
                    deliveries.merge(t.id(), 1, Integer::sum);
                }
                if (!batch.tasks().isEmpty()) {
                    acksSent.incrementAndGet();
                    pending.add(q.protocol().ack(0, batch.tasks()).thenAccept(ok -> {
                        acked.addAndGet(ok.stream().filter(b -> b).count());
                    }).toCompletableFuture());
                }
                if (answers.incrementAndGet() % KILL_EVERY == 0) {
                    killClaimer.run();
                }
                if (batch.tasks().isEmpty() && !batch.hasNext()) {
                    done.complete(null);   // nothing due any more: tasks only leave, none come back
                } else {
                    next(UUID.randomUUID().toString());
                }
            }
        }
        List<Lane> lanes = new ArrayList<>();
        for (int i = 0; i < LANES; i++) {
            Lane lane = new Lane();
            lanes.add(lane);
            lane.next(UUID.randomUUID().toString());
        }
        try {
            Replies.await(CompletableFuture.allOf(lanes.stream().map(l -> l.done).toArray(CompletableFuture[]::new)),
                    Duration.ofSeconds(90));
            TestQueue.sync(CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)));
        } finally {
            lanesThread.shutdownNow();
        }

        Matcher calls = EVALSHA_CALLS.matcher(get(admin.info("commandstats")));
        assertThat(calls.find()).isTrue();
        return new Outcome(deliveries, acked.get(), kills.get(), claimsSent.get(), acksSent.get(),
                Long.parseLong(calls.group(1)), get(admin.zcard(q.keys(0).inflight())),
                get(admin.zcard(q.keys(0).due(0))), failedClaims.get());
    }
}
