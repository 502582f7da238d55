package io.delayq.bench;

import io.delayq.bench.outbox.Arrivals;
import io.delayq.bench.outbox.Percentiles;
import io.delayq.bench.outbox.Producers;
import io.delayq.bench.outbox.Wal;
import io.delayq.client.DelayQueueClient;
import io.delayq.localpostgres.LocalPostgres;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.outbox.Outbox;
import io.delayq.outbox.migration.OutboxMigrations;
import io.delayq.outbox.relay.OutboxRelay;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.task.TaskSpec;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Direct enqueue (the Java client straight to Redis) against the outbox (rows INSERTed in a committed transaction,
 * copied by {@link OutboxRelay}), side by side in one run on a redis-server and a PostgreSQL 15 it starts itself:
 * latency until the task is in Redis (seen by an independent observer, {@link Arrivals}), throughput through one and
 * two relays, and what PostgreSQL pays (rows/s, WAL bytes per task). No pass or fail; prints the tables and writes
 * them into docs/bench.md (its {@code bench:outbox} section) unless {@code --no-docs}.
 * <pre>
 *   ./bench/outbox.sh [--runs 2] [--tasks 200000] [--samples 1000] [--producers 4] [--fast-pg] [--no-docs]
 * </pre>
 */
public final class OutboxBench {
    static final String SECTION = "outbox";
    private static final String LATENCY_QUEUE = "outbox-lat";
    private static final String THROUGHPUT_QUEUE = "outbox-tp";
    private static final int THROUGHPUT_SHARDS = 8;
    private static final long PROBE_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long BATCH_PROBE_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final int BIG_TRANSACTION = 100;
    private static final long ARRIVAL_TIMEOUT_MS = 120_000;
    /** The offered rate of the paced live row: half the relay's goal. */
    private static final int PACED_RATE = 10_000;

    record Settings(int runs, int tasks, int samples, int producers, boolean durable, boolean docs) {
    }

    /** Latency until in Redis of one path; for the outbox, also how long its {@code commit()} call took (null: direct). */
    record Latency(String path, Percentiles p, Percentiles commit) {
    }

    /** Tasks through a path per second; for outbox paths, the WAL written per task and the latency of probes meanwhile. */
    record Flow(String path, int relays, double tasksPerSecond, double walPerTask, Percentiles probes, Percentiles probeCommits) {
    }

    /** What producing costs PostgreSQL, by transaction size. */
    record Insert(int perTransaction, int tasks, double rowsPerSecond, double walPerTask) {
    }

    record Run(List<Latency> latencies, List<Flow> flows, List<Insert> inserts, String loadBefore, String loadAfter) {
    }

    private final Settings settings;
    private final LocalRedisServer redis;
    private final LocalPostgres pg;
    private final RedisClient lettuce;
    private final StatefulRedisConnection<String, String> redisConnection;
    private final Connection admin;
    private final DelayQueueClient latencyClient;
    private final DelayQueueClient throughputClient;
    private int prefix;

    private OutboxBench(Settings settings, LocalRedisServer redis, LocalPostgres pg) throws SQLException {
        this.settings = settings;
        this.redis = redis;
        this.pg = pg;
        this.lettuce = RedisClient.create(redis.url());
        this.redisConnection = lettuce.connect();
        this.admin = pg.connect();
        OutboxMigrations.migrate(admin);
        this.latencyClient = DelayQueueClient.builder().redis(redis.url()).queue(LATENCY_QUEUE).shards(1).build();
        this.throughputClient = DelayQueueClient.builder().redis(redis.url()).queue(THROUGHPUT_QUEUE).shards(THROUGHPUT_SHARDS).build();
    }

    public static void main(String[] args) throws Exception {
        Settings s = parse(args);
        String machine = MeasuredOn.describe();
        List<Run> runs = new ArrayList<>();
        String versions = "";
        for (int r = 1; r <= s.runs(); r++) {
            System.out.printf("run %d of %d%n", r, s.runs());
            String loadBefore = MeasuredOn.loadAverage();
            Map<String, String> pgSettings = s.durable()
                    ? Map.of("fsync", "on", "synchronous_commit", "on", "full_page_writes", "on")
                    : Map.of();
            try (LocalRedisServer redis = LocalRedisServer.start("--save", "", "--appendonly", "no");
                 LocalPostgres pg = LocalPostgres.start(pgSettings)) {
                OutboxBench bench = new OutboxBench(s, redis, pg);
                try {
                    versions = bench.versions();
                    runs.add(bench.run(loadBefore));
                } finally {
                    bench.close();
                }
            }
        }
        String rendered = render(s, runs, machine, versions);
        System.out.println();
        System.out.println(rendered);
        if (s.docs()) {
            Path file = Path.of("docs/bench.md");
            DocSections.write(file, SECTION, rendered);
            System.out.println("written to " + file);
        }
    }

    private static Settings parse(String[] args) {
        int runs = 2;
        int tasks = 200_000;
        int samples = 1000;
        int producers = 4;
        boolean durable = true;
        boolean docs = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--tasks" -> tasks = Integer.parseInt(args[++i]);
                case "--samples" -> samples = Integer.parseInt(args[++i]);
                case "--producers" -> producers = Integer.parseInt(args[++i]);
                case "--fast-pg" -> durable = false;
                case "--no-docs" -> docs = false;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (use --runs 2, --tasks 200000, --samples 1000, --producers 4, --fast-pg, --no-docs)");
            }
        }
        if (runs < 1 || tasks < 1000 || samples < 100 || producers < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, --tasks at least 1000, --samples at least 100, --producers at least 1");
        }
        return new Settings(runs, tasks, samples, producers, durable, docs);
    }

    private String versions() throws SQLException {
        String pgVersion;
        try (Statement st = admin.createStatement(); ResultSet rs = st.executeQuery("SHOW server_version")) {
            rs.next();
            pgVersion = rs.getString(1);
        }
        String redisVersion = redisConnection.sync().info("server").lines().filter(l -> l.startsWith("redis_version:"))
                .map(l -> l.substring("redis_version:".length()).trim()).findFirst().orElse("?");
        return "redis-server " + redisVersion + " (" + redis.origin() + "), PostgreSQL " + pgVersion;
    }

    private Run run(String loadBefore) throws Exception {
        List<Latency> latencies = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        List<Insert> inserts = new ArrayList<>();
        try (Arrivals arrivals = new Arrivals(redis.url(), latencyClient.protocol().keys(0).due(0))) {
            latencies.addAll(latency(arrivals));
            flows.addAll(direct());
            warmUpRelay();
            for (int perTransaction : new int[] {1, BIG_TRANSACTION}) {
                // a single-row transaction commits (and with a durable PostgreSQL flushes its WAL) once per task: fewer tasks
                int tasks = perTransaction == 1 ? settings.tasks() / 10 : settings.tasks();
                inserts.add(fill(perTransaction, tasks));
                flows.add(drain(1, tasks, "outbox, backlog of " + label(perTransaction) + ", relayed"));
                reset();
            }
            flows.add(drainAfterFill(2));
            for (int perTransaction : new int[] {1, BIG_TRANSACTION}) {
                for (int relays : new int[] {1, 2}) {
                    flows.add(live(arrivals, perTransaction, relays, 0));
                }
            }
            flows.add(live(arrivals, BIG_TRANSACTION, 1, PACED_RATE));
        }
        return new Run(latencies, flows, inserts, loadBefore, MeasuredOn.loadAverage());
    }

    private static String label(int perTransaction) {
        return perTransaction == 1 ? "1-row transactions" : perTransaction + "-row transactions";
    }

    // ---- latency at a light load: one path at a time, in turns -------------------------------------------------------

    private List<Latency> latency(Arrivals arrivals) throws Exception {
        List<long[]> direct = new ArrayList<>();
        List<long[]> single = new ArrayList<>();
        List<long[]> batched = new ArrayList<>();
        List<Long> singleCommits = new ArrayList<>();
        List<Long> batchedCommits = new ArrayList<>();
        int turns = 4;
        int perTurn = settings.samples() / turns;
        try (OutboxRelay relay = startRelay(); Connection db = pg.connect()) {
            db.setAutoCommit(false);
            Outbox outbox = Outbox.forQueue(LATENCY_QUEUE);
            warmUp(arrivals, db, outbox);
            for (int turn = 0; turn < turns; turn++) {
                direct.add(probeDirect(arrivals, perTurn));
                single.add(probeOutbox(arrivals, db, outbox, perTurn, 1, PROBE_EVERY_NANOS, singleCommits));
                batched.add(probeOutbox(arrivals, db, outbox, perTurn, BIG_TRANSACTION, BATCH_PROBE_EVERY_NANOS, batchedCommits));
            }
        }
        List<Latency> out = List.of(
                new Latency("direct: `enqueue` call (Java client → Redis)", Percentiles.of(concat(direct)), null),
                new Latency("outbox: 1-row transaction, commit → Redis (1 relay, NOTIFY)", Percentiles.of(concat(single)), nanos(singleCommits)),
                new Latency("outbox: 100-row transaction, commit → Redis, per task (1 relay, NOTIFY)", Percentiles.of(concat(batched)),
                        nanos(batchedCommits)));
        out.forEach(l -> System.out.printf("latency %-75s p50 %.2f ms  p99 %.2f ms  max %.2f ms (%d)%s%n", l.path(), l.p().p50Ms(),
                l.p().p99Ms(), l.p().maxMs(), l.p().count(), l.commit() == null ? ""
                        : String.format("; commit() p50 %.2f ms p99 %.2f ms", l.commit().p50Ms(), l.commit().p99Ms())));
        return out;
    }

    private void warmUp(Arrivals arrivals, Connection db, Outbox outbox) throws Exception {
        probeDirect(arrivals, 200);
        probeOutbox(arrivals, db, outbox, 200, 1, PROBE_EVERY_NANOS, new ArrayList<>());
        probeOutbox(arrivals, db, outbox, 200, BIG_TRANSACTION, BATCH_PROBE_EVERY_NANOS, new ArrayList<>());
    }

    private long[] probeDirect(Arrivals arrivals, int tasks) throws InterruptedException {
        String p = nextPrefix();
        long next = System.nanoTime();
        for (int i = 0; i < tasks; i++) {
            next = pace(next, PROBE_EVERY_NANOS);
            String id = p + "-" + i;
            long start = System.nanoTime();
            arrivals.expect(id, start);
            latencyClient.enqueue(Producers.task(id));
        }
        return arrivals.takeLatencies(ARRIVAL_TIMEOUT_MS);
    }

    /**
     * {@code tasks} tasks in transactions of {@code perTransaction}, one transaction every {@code everyNanos}; each
     * {@code commit()} call's duration is added to {@code commits}.
     */
    private long[] probeOutbox(Arrivals arrivals, Connection db, Outbox outbox, int tasks, int perTransaction, long everyNanos,
                               List<Long> commits) throws SQLException, InterruptedException {
        String p = nextPrefix();
        long next = System.nanoTime();
        for (int i = 0; i < tasks; i += perTransaction) {
            next = pace(next, everyNanos);
            List<String> ids = new ArrayList<>(perTransaction);
            for (int k = i; k < Math.min(tasks, i + perTransaction); k++) {
                String id = p + "-" + k;
                outbox.enqueue(db, Producers.task(id));
                ids.add(id);
            }
            long commit = System.nanoTime();
            ids.forEach(id -> arrivals.expect(id, commit));
            db.commit();
            commits.add(System.nanoTime() - commit);
        }
        return arrivals.takeLatencies(ARRIVAL_TIMEOUT_MS);
    }

    /** Sleeps until {@code next}, returns the slot after it (a late slot is not made up for: the load stays light). */
    private static long pace(long next, long every) throws InterruptedException {
        long wait = next - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
            return next + every;
        }
        return System.nanoTime() + every;
    }

    // ---- throughput ----------------------------------------------------------------------------------------------

    /** The Java client straight to Redis, as fast as {@code producers} threads go: one call per task, then 100 per call. */
    private List<Flow> direct() throws InterruptedException, SQLException {
        List<Flow> flows = new ArrayList<>();
        for (int perCall : new int[] {1, BIG_TRANSACTION}) {
            int tasks = settings.tasks();
            String p = nextPrefix();
            AtomicLong next = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < settings.producers(); t++) {
                Thread thread = new Thread(() -> {
                    while (true) {
                        long first = next.getAndAdd(perCall);
                        if (first >= tasks) {
                            return;
                        }
                        List<TaskSpec> batch = new ArrayList<>(perCall);
                        for (long n = first; n < Math.min(tasks, first + perCall); n++) {
                            batch.add(Producers.task(p + "-" + n));
                        }
                        if (perCall == 1) {
                            throughputClient.enqueue(batch.get(0));
                        } else {
                            throughputClient.enqueueAll(batch);
                        }
                    }
                });
                thread.start();
                threads.add(thread);
            }
            for (Thread t : threads) {
                t.join();
            }
            double rate = tasks / seconds(System.nanoTime() - start);
            String path = perCall == 1 ? "direct: `enqueue`, one task per call" : "direct: `enqueueAll`, 100 tasks per call";
            flows.add(new Flow(path, 0, rate, Double.NaN, null, null));
            System.out.printf("%-60s %,10.0f tasks/s%n", path, rate);
            reset();
        }
        return flows;
    }

    /** Producers fill the outbox with no relay running: the rate PostgreSQL takes the rows at, and their WAL. */
    private Insert fill(int perTransaction, int tasks) throws Exception {
        Producers producers = new Producers(pg.jdbcUrl(), pg.credentials(), THROUGHPUT_QUEUE);
        long wal = Wal.position(admin);
        long nanos = producers.write(nextPrefix(), tasks, perTransaction, settings.producers());
        double walPerTask = (double) (Wal.position(admin) - wal) / tasks;
        Insert insert = new Insert(perTransaction, tasks, tasks / seconds(nanos), walPerTask);
        System.out.printf("fill, %-24s %,10.0f rows/s  %,6.0f WAL bytes/task%n", label(perTransaction), insert.rowsPerSecond(), walPerTask);
        return insert;
    }

    /** A relay's code compiled before anything of it is timed: a small backlog drained, untimed. */
    private void warmUpRelay() throws Exception {
        int tasks = Math.min(settings.tasks(), 50_000);
        new Producers(pg.jdbcUrl(), pg.credentials(), THROUGHPUT_QUEUE).write(nextPrefix(), tasks, BIG_TRANSACTION, settings.producers());
        drain(1, tasks, "warm-up");
        reset();
    }

    private Flow drainAfterFill(int relays) throws Exception {
        fill(BIG_TRANSACTION, settings.tasks());
        Flow flow = drain(relays, settings.tasks(), "outbox, backlog of 100-row transactions, relayed");
        reset();
        return flow;
    }

    /**
     * Starts {@code relays} relays on a filled outbox and times the tasks into Redis: the rate between 10 % and 90 % of
     * them (the relays' steady state, their start left out), and the WAL the relays wrote (deletes, commits) per task.
     */
    private Flow drain(int relays, int tasks, String path) throws Exception {
        long wal = Wal.position(admin);
        List<OutboxRelay> running = new ArrayList<>();
        long t10 = 0;
        long t90 = 0;
        try {
            for (int r = 0; r < relays; r++) {
                running.add(startRelay());
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ARRIVAL_TIMEOUT_MS * 5);
            while (true) {
                long count = dueCount();
                long now = System.nanoTime();
                if (t10 == 0 && count >= tasks / 10) {
                    t10 = now;
                }
                if (count >= tasks - tasks / 10) {
                    t90 = now;
                    break;
                }
                if (now > deadline) {
                    throw new IllegalStateException("only " + count + " of " + tasks + " tasks reached Redis");
                }
                Thread.sleep(5);
            }
            awaitOutboxEmpty();
        } finally {
            running.forEach(OutboxRelay::close);
        }
        double rate = (tasks - tasks / 10 - tasks / 10) / seconds(t90 - t10);
        double walPerTask = (double) (Wal.position(admin) - wal) / tasks;
        Flow flow = new Flow(path, relays, rate, walPerTask, null, null);
        System.out.printf("%-60s %d relay(s) %,10.0f tasks/s  %,6.0f WAL bytes/task%n", path, relays, rate, walPerTask);
        return flow;
    }

    /**
     * Relays running while producers write as fast as they can and a probe commits one row every 5 ms into the latency
     * queue: tasks into Redis per second over the whole phase, and the probes' commit → Redis latency under that load.
     */
    private Flow live(Arrivals arrivals, int perTransaction, int relays, int offeredRate) throws Exception {
        int tasks = perTransaction == 1 ? settings.tasks() / 10 : settings.tasks();
        Producers producers = new Producers(pg.jdbcUrl(), pg.credentials(), THROUGHPUT_QUEUE);
        List<OutboxRelay> running = new ArrayList<>();
        AtomicBoolean probing = new AtomicBoolean(true);
        List<long[]> probeLatencies = new ArrayList<>();
        List<Long> probeCommits = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread probe;
        long wal;
        long start;
        long end;
        try {
            for (int r = 0; r < relays; r++) {
                running.add(startRelay());
            }
            wal = Wal.position(admin);
            probe = new Thread(() -> {
                try (Connection db = pg.connect()) {
                    db.setAutoCommit(false);
                    Outbox outbox = Outbox.forQueue(LATENCY_QUEUE);
                    String p = nextPrefix();
                    long next = System.nanoTime();
                    for (int i = 0; probing.get(); i++) {
                        next = pace(next, PROBE_EVERY_NANOS);
                        outbox.enqueue(db, Producers.task(p + "-" + i));
                        long commit = System.nanoTime();
                        arrivals.expect(p + "-" + i, commit);
                        db.commit();
                        probeCommits.add(System.nanoTime() - commit);
                    }
                } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, "probe");
            start = System.nanoTime();
            probe.start();
            producers.write(nextPrefix(), tasks, perTransaction, settings.producers(), offeredRate);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ARRIVAL_TIMEOUT_MS * 5);
            while (dueCount() < tasks) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("only " + dueCount() + " of " + tasks + " tasks reached Redis");
                }
                Thread.sleep(2);
            }
            end = System.nanoTime();
            probing.set(false);
            probe.join();
            probeLatencies.add(arrivals.takeLatencies(ARRIVAL_TIMEOUT_MS));
            awaitOutboxEmpty();
        } finally {
            probing.set(false);
            running.forEach(OutboxRelay::close);
        }
        double rate = tasks / seconds(end - start);
        int probeCount = probeLatencies.get(0).length;
        double walPerTask = (double) (Wal.position(admin) - wal) / (tasks + probeCount);
        Percentiles p = Percentiles.of(probeLatencies.get(0));
        String path = "outbox, live: producers in " + label(perTransaction) + (offeredRate > 0
                ? String.format(" at %,d tasks/s offered", offeredRate) : ", as fast as they go,") + " while relaying";
        System.out.printf("%-60s %d relay(s) %,10.0f tasks/s  %,6.0f WAL bytes/task  probes p50 %.1f ms p99 %.1f ms (%d)%n", path, relays,
                rate, walPerTask, p.p50Ms(), p.p99Ms(), p.count());
        synchronized (probeCommits) {
            Percentiles c = nanos(probeCommits);
            System.out.printf("   of it, the probes' commit() p50 %.1f ms p99 %.1f ms%n", c.p50Ms(), c.p99Ms());
        }
        reset();
        return new Flow(path, relays, rate, walPerTask, p, nanos(probeCommits));
    }

    private OutboxRelay startRelay() throws InterruptedException {
        RelayConfig config = RelayConfig.builder().jdbcUrl(pg.jdbcUrl()).user(LocalPostgres.USER).redisUrl(redis.url())
                .newQueueShards(LATENCY_QUEUE, 1).newQueueShards(THROUGHPUT_QUEUE, THROUGHPUT_SHARDS).build();
        OutboxRelay relay = OutboxRelay.start(config, new SimpleMeterRegistry());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!relay.listening()) {
            if (System.nanoTime() > deadline) {
                relay.close();
                throw new IllegalStateException("the relay did not LISTEN within 30 s");
            }
            Thread.sleep(5);
        }
        return relay;
    }

    private long dueCount() {
        long n = 0;
        for (int s = 0; s < THROUGHPUT_SHARDS; s++) {
            n += redisConnection.sync().zcard(throughputClient.protocol().keys(s).due(0));
        }
        return n;
    }

    private void awaitOutboxEmpty() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            try (Statement st = admin.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM delayq_outbox")) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the outbox did not empty within 2 minutes");
            }
            Thread.sleep(10);
        }
    }

    /** Empties the throughput queue's due sets and vacuums the outbox, so every phase starts alike (untimed). */
    private void reset() throws SQLException {
        // the queue's shard keys (due sets, record buckets) share its hash tags {outbox-tp:<shard>}
        redisConnection.sync().eval("for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end return 0",
                ScriptOutputType.INTEGER, new String[0], "dq:{" + THROUGHPUT_QUEUE + ":*");
        boolean auto = admin.getAutoCommit();
        admin.setAutoCommit(true);
        try (Statement st = admin.createStatement()) {
            st.execute("VACUUM delayq_outbox");
            st.execute("CHECKPOINT");
        } finally {
            admin.setAutoCommit(auto);
        }
    }

    private synchronized String nextPrefix() {
        return "b" + (++prefix);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static Percentiles nanos(List<Long> values) {
        return Percentiles.of(values.stream().mapToLong(Long::longValue).toArray());
    }

    private static long[] concat(List<long[]> parts) {
        return parts.stream().flatMapToLong(java.util.Arrays::stream).toArray();
    }

    private void close() throws SQLException {
        latencyClient.close();
        throughputClient.close();
        redisConnection.close();
        lettuce.shutdown();
        admin.close();
    }

    // ---- the report --------------------------------------------------------------------------------------------------

    /** The goals the outbox was given, against this run's figures. */
    private static String goals(Run run) {
        double one = run.flows().stream().filter(f -> f.relays() == 1 && f.path().contains("backlog of 100-row")).mapToDouble(Flow::tasksPerSecond)
                .max().orElse(Double.NaN);
        double two = run.flows().stream().filter(f -> f.relays() == 2 && f.path().contains("backlog")).mapToDouble(Flow::tasksPerSecond)
                .max().orElse(Double.NaN);
        Latency single = run.latencies().get(1);
        Latency direct = run.latencies().get(0);
        double paced = run.flows().stream().filter(f -> f.path().contains("offered") && f.probes() != null).mapToDouble(f -> f.probes().p99Ms())
                .findFirst().orElse(Double.NaN);
        return String.format("Goals: **≥ 20,000 tasks/s through the relay**: one relay drained %,.0f/s (%s), two %,.0f/s (%.2f × one); "
                        + "**p99 commit → Redis ≤ 50 ms with NOTIFY**: %.1f ms for 1-row transactions at a light load (%s, %.1f × the direct call's p99), "
                        + "%.1f ms for probes while %,d tasks/s were offered in 100-row transactions (%s).",
                one, one >= 20_000 ? "met" : "**not met**", two, two / one, single.p().p99Ms(), single.p().p99Ms() <= 50 ? "met" : "**not met**",
                single.p().p99Ms() / direct.p().p99Ms(), paced, PACED_RATE, paced <= 50 ? "met" : "**not met**");
    }

    private static final String WHERE_THE_TIME_GOES = """
            Reading the tables:

            - **Latency.** Direct is one `EVALSHA` round trip. The outbox adds, after the producer's `commit()` (its WAL flushed \
            to disk before it returns and before the NOTIFY goes out: the commit column), the relay's wake-up on the NOTIFY, its \
            claim `SELECT … FOR UPDATE SKIP LOCKED`, and the enqueue on Redis; the relay's delete and its own commit come after the \
            task is in Redis. A relay busy with a round (its own commit included) finishes it before it takes the next rows, so a \
            stream of small transactions pays part of a round in the tail. A task from a 100-row transaction is in Redis with the \
            rest of its transaction: one claim, one `enqueueAll` per shard.
            - **Throughput.** *Backlog* rows drain rows committed beforehand with no producer running: the relay's own rate, \
            timed between 10 % and 90 % of the tasks in Redis. A round (500 rows by default) is one claim, the enqueues grouped \
            by queue and duplicate policy into one `enqueueAll` (a script call per shard, pipelined), one `DELETE … = ANY(seqs)` \
            and a commit. *Live* rows run producers and relays at once on the same 2 cores with PostgreSQL and Redis: with \
            1-row transactions the producers' commits (one WAL flush each) are the limit, not the relay; a probe's tail there is \
            mostly the relay's side (its own `commit()` is the last column): thousands of commits a second each wake it for a \
            small round, with a claim, a delete and a WAL-flushed commit of its own, on cores the producers' backends keep busy; \
            with 100-row transactions as fast as the producers go, they outrun one relay (they and PostgreSQL take most of the \
            2 cores), and a probe then waits behind the backlog, since rows leave in `seq` order. At an offered rate the \
            relay keeps up with (the paced row), a probe waits for no backlog. Two relays in one JVM add a second \
            claim-apply-delete pipeline; on 2 shared cores they gain only what CPU is left (compare the runs' load averages).
            - **PostgreSQL.** WAL per task is the `pg_current_wal_lsn()` difference over a phase divided by its tasks: the \
            producers' INSERTs (row, index entries, commit records; a 1-row transaction pays a commit record per task) and, \
            in the backlog rows, the relays' deletes and commits. Live rows count both. Checkpoints and autovacuum that \
            fall inside a phase count too; a `VACUUM` and a `CHECKPOINT` run untimed between phases.

            """;

    static String render(Settings s, List<Run> runs, String machine, String versions) {
        StringBuilder md = new StringBuilder("## Outbox: direct against outbox\n\n");
        md.append("`./bench/outbox.sh` (`io.delayq.bench.OutboxBench`, ~10 min; options `--runs 2 --tasks 200000 --samples 1000 --producers 4 --fast-pg --no-docs`), ")
                .append("this run with ").append(String.format("%d runs, %,d tasks, %,d samples, %d producer threads", s.runs(), s.tasks(), s.samples(), s.producers()))
                .append(", ").append(LocalDate.now(ZoneOffset.UTC)).append(", on ").append(machine).append(", shared. ")
                .append(versions).append(", both started by the benchmark on loopback; Redis without persistence; PostgreSQL ")
                .append(s.durable() ? "with its durable defaults (`fsync`, `synchronous_commit`, `full_page_writes` on; the data directory in /tmp)"
                        : "with `fsync`, `synchronous_commit` and `full_page_writes` off (`--fast-pg`)")
                .append(". Producers, relays and the observer share one JVM and its clock; the relays run with their defaults ")
                .append("(`batchSize` 500, LISTEN/NOTIFY, `pollInterval` 1 s). Tasks are due in an hour (nothing fires), ")
                .append("payload ").append(Producers.PAYLOAD.length()).append(" bytes.\n\n");
        md.append("**In Redis** is seen by an observer of its own: a keyspace notification on the due set (`notify-keyspace-events Kz`, ")
                .append("sent as the `ZADD` runs) wakes it, it asks `ZMSCORE` which awaited ids are there and stamps each found one with ")
                .append("the time that answer arrived: late by at most one round trip, never early (a 2 ms poll covers a lost notification). ")
                .append("The clock starts at the direct `enqueue` call's start, or just before the outbox transaction's `commit()`. ")
                .append("Latency is measured at a light load (a task every 5 ms, or a 100-row transaction every 50 ms, ")
                .append(s.samples()).append(" tasks per path, the paths in turns), and again for probes committed every 5 ms during the live rows below.\n\n");
        for (int i = 0; i < runs.size(); i++) {
            Run run = runs.get(i);
            md.append("### Run ").append(i + 1).append("\n\n");
            md.append("| path | tasks | p50 | p99 | max | p99 ÷ direct p99 | of it, the `commit()` call p50 / p99 |\n|---|---:|---:|---:|---:|---:|---:|\n");
            double directP99 = run.latencies().get(0).p().p99Ms();
            for (Latency l : run.latencies()) {
                md.append(String.format("| %s | %,d | %.2f ms | %.2f ms | %.2f ms | %.1f | %s |%n", l.path(), l.p().count(), l.p().p50Ms(),
                        l.p().p99Ms(), l.p().maxMs(), l.p().p99Ms() / directP99, l.commit() == null ? "–"
                                : String.format("%.2f / %.2f ms", l.commit().p50Ms(), l.commit().p99Ms())));
            }
            md.append("\n| throughput | relays | tasks/s into Redis | ÷ direct `enqueueAll` | WAL bytes / task | probe commit → Redis p50 / p99 | of it, the probe's `commit()` p50 / p99 |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|\n");
            double directBatch = run.flows().stream().filter(f -> f.relays() == 0).mapToDouble(Flow::tasksPerSecond).max().orElse(Double.NaN);
            for (Flow f : run.flows()) {
                md.append(String.format("| %s | %s | %,.0f | %.2f | %s | %s | %s |%n", f.path(), f.relays() == 0 ? "–" : String.valueOf(f.relays()),
                        f.tasksPerSecond(), f.tasksPerSecond() / directBatch, Double.isNaN(f.walPerTask()) ? "–" : String.format("%,.0f", f.walPerTask()),
                        f.probes() == null ? "–" : String.format("%.1f / %.1f ms", f.probes().p50Ms(), f.probes().p99Ms()),
                        f.probeCommits() == null ? "–" : String.format("%.1f / %.1f ms", f.probeCommits().p50Ms(), f.probeCommits().p99Ms())));
            }
            md.append("\n| producers (").append(s.producers()).append(" threads, relays stopped) | rows | rows/s into PostgreSQL | WAL bytes / task |\n");
            md.append("|---|---:|---:|---:|\n");
            for (Insert in : run.inserts()) {
                md.append(String.format("| %s | %,d | %,.0f | %,.0f |%n", label(in.perTransaction()), in.tasks(), in.rowsPerSecond(), in.walPerTask()));
            }
            md.append("\n").append(goals(run)).append(" Load average ").append(run.loadBefore()).append(" → ").append(run.loadAfter()).append(".\n\n");
        }
        md.append(WHERE_THE_TIME_GOES);
        return md.toString();
    }
}
