package io.delayq.chaos.scenario;

import io.delayq.backlog.QueueStats;
import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.Waits;
import io.delayq.chaos.fleet.MoverProcess;
import io.delayq.chaos.fleet.WorkerFleet;
import io.delayq.chaos.fleet.WorkerProcess;
import io.delayq.chaos.load.IdOperations;
import io.delayq.chaos.load.IdOpsLedger;
import io.delayq.chaos.load.Producer;
import io.delayq.chaos.recorder.Execution;
import io.delayq.chaos.report.Figures;
import io.delayq.chaos.report.RunAnalysis;
import io.delayq.chaos.report.ScenarioResult;
import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.delayq.chaos.scenario.QueueSupport.ms;
import static io.delayq.chaos.scenario.QueueSupport.secs;

/**
 * A live grow ({@code delayq reshard QUEUE --to M}, the packaged executable as its own process) of a queue with a
 * waiting backlog, while a producer enqueues at a steady rate, packaged workers over the whole queue claim and
 * follow the new layout, and cancels and reschedules by id go on. In the middle of the move: worker kill -9s, a
 * kill -9 of the mover (run again at once: it resumes from Redis), and a kill -9 of Redis restarted from its AOF
 * (appendfsync always; a mover that fails on it is run again too). Faults are triggered by how far the move has
 * come, so they land inside it on a fast machine or a slow one. Judged from the recorders' files and the
 * producer's and the id operations' ledgers: 0 lost, 0 early, a duplicate only with a higher attempt, nothing
 * run after its cancel succeeded.
 */
public final class ReshardScenario extends SettingsScenario<ReshardScenario.Settings> {
    /**
     * @param preload       waiting tasks written before the load, due {@code preloadDue} .. 2 × {@code preloadDue} later (what moves)
     * @param tasks         tasks the producer enqueues over {@code load}, each due 0.5–3 s after it is written
     * @param workerKillsAt fractions of the move (0..1) at which a random worker is killed with SIGKILL and restarted
     * @param moverKillAt   fraction of the move at which the mover is killed with SIGKILL (and run again at once)
     * @param redisRestartAt fraction of the move at which Redis is killed with SIGKILL and restarted from its AOF
     * @param opsEvery      pause between two id operations (cancels and reschedules alternate)
     * @param protocol      the protocol the queue is created with (2, or 3: docs/protocol3.md); every process follows the meta
     */
    public record Settings(String key, int from, int to, int preload, Duration preloadDue, int tasks, Duration load, int workers,
                           Duration lease, int workMillis, int moverBatch, Duration moverAfter, List<Double> workerKillsAt,
                           double moverKillAt, double redisRestartAt, Duration opsEvery, int protocol) implements SettingsScenario.Keyed {
    }

    /** The pause before a mover that exited with an error is run again. */
    private static final Duration MOVER_BACKOFF = Duration.ofSeconds(2);

    public ReshardScenario(Settings settings) {
        super(settings);
    }

    /** A fault at a point of the move. */
    private record Fault(double at, String kind) {
    }

    @Override
    public ScenarioResult run(ChaosContext ctx) throws Exception {
        List<String> problems = new ArrayList<>();
        ctx.log("%s: grow %d -> %d shards with %,d waiting + %,d produced tasks, %d workers, mover batch %d", s.key(), s.from(), s.to(),
                s.preload(), s.tasks(), s.workers(), s.moverBatch());
        try (LocalRedisServer redis = LocalRedisServer.start("--appendonly", "yes", "--appendfsync", "always");
             FleetRig rig = FleetRig.startOn(s.protocol(), ctx, s.key(), redis.url(), s.from(), s.lease(), s.workers());
             DelayQueueClient opsClient = rig.client(redis.url()).build()) {
            String queue = rig.queue();
            DelayQueueClient admin = rig.admin();
            WorkerFleet fleet = rig.fleet();
            Map<String, Producer.Acked> preloaded = preload(rig.producerClient());
            long expectedMoves = preloaded.keySet().stream()
                    .filter(id -> Sharding.shardOf(id, s.from()) != Sharding.shardOf(id, s.to())).count();
            ctx.log("%s: %,d waiting tasks written (%,d of them belong to another shard of %d), %d workers ready, load starts", s.key(),
                    preloaded.size(), expectedMoves, s.to(), s.workers());

            long t0Millis = System.currentTimeMillis();
            Producer producer = rig.startLoad("t-", s.tasks(), s.load(), Duration.ofMillis(500), Duration.ofMillis(3000),
                    i -> "work=" + s.workMillis());
            long t0 = rig.t0();
            List<String> preloadIds = List.copyOf(preloaded.keySet());
            IdOperations ops = new IdOperations(opsClient, () -> pickWaiting(preloaded, preloadIds, producer), s.opsEvery()).start();

            Waits.sleepUntil(t0 + s.moverAfter().toNanos());
            List<MoverProcess> movers = new ArrayList<>();
            movers.add(startMover(ctx, redis, rig, movers.size() + 1));

            List<Fault> faults = new ArrayList<>();
            s.workerKillsAt().forEach(f -> faults.add(new Fault(f, "worker")));
            faults.add(new Fault(s.moverKillAt(), "mover"));
            faults.add(new Fault(s.redisRestartAt(), "redis"));
            faults.sort((a, b) -> Double.compare(a.at(), b.at()));
            long redisKilledAt = -1;
            long redisDowntime = -1;
            double progress = 0;
            MoverProcess reported = null;
            long restartAt = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (true) {
                progress = movedFraction(admin, queue, expectedMoves, progress);
                while (!faults.isEmpty() && faults.get(0).at() <= progress) {
                    Fault f = faults.remove(0);
                    String at = String.format("t=%s (%.0f %% moved)", secs((System.nanoTime() - t0) / 1_000_000), progress * 100);
                    switch (f.kind()) {
                        case "worker" -> {
                            int victim = ctx.random().nextInt(fleet.size());
                            WorkerProcess before = fleet.get(victim);
                            fleet.killAndRestart(victim);
                            rig.event(String.format("%s kill -9 worker %d (pid %d), restarted as pid %d", at, victim + 1, before.pid(),
                                    fleet.get(victim).pid()));
                        }
                        case "mover" -> {
                            MoverProcess m = movers.get(movers.size() - 1);
                            m.kill9();
                            rig.event(String.format("%s kill -9 the mover (pid %d)", at, m.pid()));
                            movers.add(startMover(ctx, redis, rig, movers.size() + 1));
                        }
                        default -> {
                            redisKilledAt = System.currentTimeMillis();
                            long k0 = System.nanoTime();
                            redis.restart(); // SIGKILL, then the same port, arguments and AOF; returns once PING answers
                            redisDowntime = (System.nanoTime() - k0) / 1_000_000;
                            rig.event(String.format("%s kill -9 Redis (appendfsync always), restarted from its AOF in %s", at,
                                    ms(redisDowntime)));
                        }
                    }
                }
                MoverProcess m = movers.get(movers.size() - 1);
                if (!m.isAlive() && !m.equals(reported)) {
                    reported = m;
                    String at = "t=" + secs((System.nanoTime() - t0) / 1_000_000);
                    if (m.exitCode() == 0) {
                        rig.event(String.format("%s the mover (pid %d) exited 0: %s", at, m.pid(), m.lastLine()));
                        break;
                    }
                    rig.event(String.format("%s the mover (pid %d) exited %d (%s): run again in %s", at, m.pid(), m.exitCode(),
                            m.lastLine(), secs(MOVER_BACKOFF.toMillis())));
                    if (movers.size() >= 40) {
                        problems.add("the mover failed " + movers.size() + " times; last output: " + m.output());
                        break;
                    }
                    // as a Job restarts a failed pod: after a pause (a killed mover's lease, if it holds one, runs out meanwhile)
                    restartAt = System.nanoTime() + MOVER_BACKOFF.toNanos();
                }
                if (restartAt > 0 && System.nanoTime() >= restartAt) {
                    restartAt = 0;
                    movers.add(startMover(ctx, redis, rig, movers.size() + 1));
                }
                if (System.nanoTime() > deadline) {
                    problems.add("the move did not finish within 5 min");
                    m.kill9();
                    break;
                }
                Thread.sleep(20); // the progress poll's pace
            }
            long movedAtMillis = (System.nanoTime() - t0) / 1_000_000;
            if (!faults.isEmpty()) {
                problems.add("the move finished before these faults: " + faults + " (the scenario needs a slower move: more preload or a smaller batch)");
            }
            rig.awaitLoadAcknowledged(producer, s.load());
            ops.close();
            Layout after = io.delayq.redis.Replies.await(admin.protocol().refreshLayout(), Duration.ofSeconds(5));
            String protocol = io.delayq.redis.Replies.await(admin.redis().commands().hget("dq:{" + queue + "}:meta", "protocol"),
                    Duration.ofSeconds(5));
            if (!String.valueOf(s.protocol()).equals(protocol)) {
                problems.add("the queue's meta records protocol " + protocol + ", not " + s.protocol());
            }
            QueueSupport.Drained drained = rig.drainAndStop();
            QueueStats end = drained.end();
            long total = drained.totalMillis();

            IdOpsLedger ledger = ops.ledger();
            Map<String, Producer.Acked> all = new HashMap<>(preloaded);
            all.putAll(producer.acked());
            Map<String, List<Execution>> byId = new HashMap<>();
            drained.executions().forEach(e -> byId.computeIfAbsent(e.id(), k -> new ArrayList<>()).add(e));
            // what must run: acknowledged, and not cancelled (for certain, or by a cancel whose answer was lost and never ran)
            Map<String, Producer.Acked> mustRun = new HashMap<>();
            int maybeCancelledNeverRan = 0;
            for (Map.Entry<String, Producer.Acked> a : all.entrySet()) {
                String id = a.getKey();
                if (ledger.cancelled(id)) {
                    continue;
                }
                if (ledger.maybeCancelled(id) && !byId.containsKey(id)) {
                    maybeCancelledNeverRan++;
                    continue;
                }
                // the lag of a rescheduled task counts from its last due time
                long due = ledger.finalDue(id, a.getValue().dueAt())[0];
                mustRun.put(id, new Producer.Acked(due, a.getValue().ackedAt(), a.getValue().readded()));
            }
            Figures f = RunAnalysis.analyse(mustRun, drained.executions(), s.lease().toMillis(), redisKilledAt, (id, at) -> {
                Producer.Acked a = all.get(id);
                return a == null ? Long.MIN_VALUE : ledger.dueInForce(id, a.dueAt(), at);
            });
            List<Execution> afterCancel = ledger.firedAfterCancel(drained.executions());

            Map<String, String> details = new LinkedHashMap<>();
            details.put("grow", s.from() + " → " + s.to() + " shards, `delayq reshard --batch " + s.moverBatch() + "` as its own process");
            details.put("protocol", protocol);
            details.put("layout afterwards", after.shards() + " shards, history " + after.history() + ", epoch " + after.epoch()
                    + (after.migrating() ? ", STILL MIGRATING" : ", no migration running"));
            details.put("mover runs (exit codes)", movers.stream().map(m -> m.isAlive() ? "running" : String.valueOf(m.exitCode())).toList()
                    + ", last: " + movers.get(movers.size() - 1).lastLine());
            details.put("move took", secs(movedAtMillis - s.moverAfter().toMillis()) + " (mover start to its successful exit)");
            details.put("waiting tasks that had to move", String.format("%,d of %,d", expectedMoves, preloaded.size()));
            details.put("worker kills (kill -9, restarted)", String.valueOf(s.workerKillsAt().size()));
            if (redisKilledAt > 0) {
                details.put("Redis restart: down for", ms(redisDowntime));
                details.put("Redis restart at", secs(redisKilledAt - t0Millis) + " into the load");
            }
            details.put("loss window documented by Redis", "0 (fsync before the reply)");
            details.put("lost tasks acknowledged before the Redis kill", f.lost() == 0 ? "0" : f.lost() + " within " + ms(f.lossWindowMillis()));
            details.put("cancels that succeeded", String.format("%,d", ledger.count(IdOpsLedger.Kind.CANCEL, "cancelled")));
            details.put("reschedules that succeeded", String.format("%,d", ledger.count(IdOpsLedger.Kind.RESCHEDULE, "rescheduled")));
            details.put("id operations by outcome", ledger.outcomes().toString());
            details.put("id operations failed and sent again", ops.failures().isEmpty() ? "0" : ops.failures().toString());
            details.put("cancels whose answer was lost, task never ran (counted as cancelled)", String.valueOf(maybeCancelledNeverRan));
            details.put("executions after their cancel succeeded", String.valueOf(afterCancel.size()));
            details.put("executions before their due time", String.valueOf(f.early()));
            details.put("enqueue calls failed and retried", QueueSupport.enqueueFailures(producer));
            details.put("dead-lettered", String.valueOf(end.dead()));
            QueueSupport.putClosingDetails(details, drained.exits(), rig.loadAtStart());

            if (f.lost() > 0) {
                problems.add(f.lost() + " acknowledged task(s) never executed, e.g. " + f.lostSample());
            }
            if (f.early() > 0) {
                problems.add(f.early() + " execution(s) started before the task's due time");
            }
            if (f.repeatedAttempts() > 0) {
                problems.add(f.repeatedAttempts() + " execution(s) repeated an (id, attempt): a re-delivery without a lease expiry");
            }
            if (f.concurrentWithoutExpiry() > 0) {
                problems.add(f.concurrentWithoutExpiry() + " concurrent execution(s) of one task without a lease expiry");
            }
            if (!afterCancel.isEmpty()) {
                problems.add(afterCancel.size() + " execution(s) after their cancel had succeeded, e.g. " + afterCancel.get(0));
            }
            if (producer.acked().size() != s.tasks()) {
                problems.add("only " + producer.acked().size() + " of " + s.tasks() + " produced tasks were acknowledged");
            }
            if (end.dead() > 0) {
                problems.add(end.dead() + " task(s) dead-lettered");
            }
            if (after.migrating() || after.shards() != s.to() || !after.history().equals(List.of(s.from(), s.to()))) {
                problems.add("the queue's layout afterwards is " + after.history() + (after.migrating() ? " with a migration running" : ""));
            }
            if (ledger.count(IdOpsLedger.Kind.CANCEL, "cancelled") == 0 || ledger.count(IdOpsLedger.Kind.RESCHEDULE, "rescheduled") == 0) {
                problems.add("no cancel or no reschedule succeeded: " + ledger.outcomes());
            }
            String setup = String.format("%,d waiting tasks (due %s–%s later) and %,d produced over %s (due 0.5–3 s after enqueue, %d ms of work "
                            + "each) on a queue grown from %d to %d shards by `delayq reshard` (its own process, batch %d, started %s into the "
                            + "load), %d packaged workers over the whole queue (lease %s), a cancel or a reschedule by id every %d ms, AOF with "
                            + "appendfsync always; at points of the move: %d × kill -9 of a random worker, 1 × kill -9 of the mover (run again "
                            + "at once), 1 × kill -9 + restart of Redis",
                    s.preload(), secs(s.preloadDue().toMillis()), secs(2 * s.preloadDue().toMillis()), s.tasks(), secs(s.load().toMillis()),
                    s.workMillis(), s.from(), s.to(), s.moverBatch(), secs(s.moverAfter().toMillis()), s.workers(),
                    secs(s.lease().toMillis()), s.opsEvery().toMillis(), s.workerKillsAt().size());
            ctx.log("%s: done in %s: lost %d, early %d, duplicated %d (repeated attempts %d), after cancel %d", s.key(), secs(total), f.lost(),
                    f.early(), f.duplicatedIds(), f.repeatedAttempts(), afterCancel.size());
            return new ScenarioResult(s.key(), title(), setup, f, details, total, rig.events(), problems);
        }
    }

    private String title() {
        return "Grow " + s.from() + " → " + s.to() + " shards under load" + (s.protocol() == 3 ? " (protocol 3)" : "") + ": worker, mover and Redis kill -9";
    }

    /** The waiting backlog: due {@code preloadDue} .. 2 × {@code preloadDue} from now, written before the load starts. */
    private Map<String, Producer.Acked> preload(DelayQueueClient client) {
        Map<String, Producer.Acked> acked = new HashMap<>();
        long base = s.preloadDue().toMillis();
        List<TaskSpec> batch = new ArrayList<>();
        for (int i = 0; i < s.preload(); i++) {
            long due = System.currentTimeMillis() + base + ThreadLocalRandom.current().nextLong(base + 1);
            batch.add(TaskSpec.of("w-" + i).at(Instant.ofEpochMilli(due)).payload("work=" + s.workMillis()));
            if (batch.size() == 1000 || i == s.preload() - 1) {
                long at = System.currentTimeMillis();
                for (EnqueueResult r : client.enqueueAll(batch)) {
                    if (r.status() != EnqueueResult.Status.ADDED) {
                        throw new IllegalStateException("preload of " + r.id() + " answered " + r.status());
                    }
                    acked.put(r.id(), new Producer.Acked(r.dueAt(), at, false));
                }
                batch.clear();
            }
        }
        return acked;
    }

    /** An acknowledged task due more than 300 ms from now (still waiting, most likely), or null. */
    private static String pickWaiting(Map<String, Producer.Acked> preloaded, List<String> preloadIds, Producer producer) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long soon = System.currentTimeMillis() + 300;
        for (int tries = 0; tries < 20; tries++) {
            String id;
            Producer.Acked a;
            if (r.nextBoolean()) {
                id = preloadIds.get(r.nextInt(preloadIds.size()));
                a = preloaded.get(id);
            } else {
                int n = producer.acked().size();
                if (n == 0) {
                    continue;
                }
                id = "t-" + r.nextInt(n + 200);
                a = producer.acked().get(id);
            }
            if (a != null && a.dueAt() > soon) {
                return id;
            }
        }
        return null;
    }

    private MoverProcess startMover(ChaosContext ctx, LocalRedisServer redis, FleetRig rig, int n) throws java.io.IOException {
        MoverProcess m = MoverProcess.start(ctx.binaries(), redis.url(), rig.queue(), s.to(), s.moverBatch(), rig.dir().resolve("mover-" + n + ".out"));
        rig.event(String.format("%s `delayq reshard %s --to %d` started (pid %d)%s", rig.sinceStart(), rig.queue(), s.to(), m.pid(),
                n == 1 ? "" : ", run " + n));
        return m;
    }

    /**
     * How far the move has come: the mover's own count of moved tasks (the meta hash's {@code moved}, which it
     * records about once a second and a resumed run carries on from) over the waiting tasks that belong to
     * another shard (some of which fire or are cancelled before their turn, so the move ends below 1). Never goes
     * back; unreadable (Redis restarting): the last value.
     */
    /** The meta hash's "moved" counts one mover run's moves: a resumed run starts it again from 0. */
    private long movedByEarlierRuns;
    private long movedLastRead;

    /** Share of the expected moves done so far, over every mover run (a killed run's moves stay counted). */
    private double movedFraction(DelayQueueClient admin, String queue, long expected, double last) {
        try {
            String moved = io.delayq.redis.Replies.await(admin.redis().commands().hget(ShardKeys.meta(queue), "moved"), Duration.ofSeconds(2));
            if (moved == null) {
                return last;
            }
            long now = Long.parseLong(moved.trim());
            if (now < movedLastRead) {
                // a new run began counting: without this a run resumed after a kill never reached the last faults' points
                movedByEarlierRuns += movedLastRead;
            }
            movedLastRead = now;
            return Math.max(last, (movedByEarlierRuns + now) / (double) Math.max(1, expected));
        } catch (RuntimeException e) {
            return last;
        }
    }
}
