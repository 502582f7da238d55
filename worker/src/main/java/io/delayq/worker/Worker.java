package io.delayq.worker;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.ForecastReader;
import io.delayq.backlog.StatsReader;
import io.delayq.client.DelayQueueClient;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.progress.ProgressWrites;
import io.delayq.handler.TaskHandler;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.dispatch.DeliveryAttempt;
import io.delayq.worker.tracing.DeliveryTracing;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.worker.dispatch.ClaimLoop;
import io.delayq.worker.dispatch.HandlerPool;
import io.delayq.worker.dispatch.ServerClock;
import io.delayq.worker.dispatch.TaskRunner;
import io.delayq.worker.dispatch.WakeBoard;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.settle.HandlerDeadline;
import io.delayq.worker.lease.LeaseKeeper;
import io.delayq.worker.permit.GroupPermits;
import io.delayq.claim.RunningPermits;
import io.delayq.worker.lease.Reclaimer;
import io.delayq.worker.layout.StraySweep;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.health.ProbeServer;
import io.delayq.worker.ops.RedisHealth;
import io.delayq.worker.ops.ShardFaults;
import io.delayq.worker.settle.FailureLog;
import io.delayq.worker.settle.Settler;
import io.delayq.worker.wake.IdleSweep;
import io.delayq.worker.wake.MarkerWatcher;
import io.delayq.worker.wake.ShardPace;
import io.delayq.worker.schedule.ScheduleMetrics;
import io.delayq.worker.schedule.SchedulePlanning;
import io.delayq.worker.presence.PresenceHeartbeat;
import io.delayq.presence.PresenceRegistry;
import io.delayq.client.AsyncDelayQueueClient;
import io.delayq.schedule.ScheduleStore;
import io.delayq.schedule.Schedules;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One worker: owns a shard range of one queue and wires the parts together (claim loop, handler
 * pool, settler, lease keeper, reclaimer, marker watchers, backlog gauges, HTTP endpoints).
 */
public final class Worker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    static final Duration REDIS_TIMEOUT = Duration.ofSeconds(5);
    static final Duration MARKER_BLOCK = Duration.ofSeconds(2);
    static final Duration BACKLOG_REFRESH = Duration.ofSeconds(5);
    /** How often a worker on a queue of protocol 2 looks whether it was upgraded in place. */
    static final Duration PROTOCOL_CHECK = Duration.ofSeconds(2);
    /**
     * What an idle worker spends stays bounded whatever its shard count: the idle sweep reads at most this many
     * shards' heads a second (one command each) and the backlog gauges at most this many shards' stats and due
     * forecasts (two scripts: 8 and 5 commands on an empty shard); with more shards a round takes longer
     * (1,024 shards: ~51 s and ~5.7 min).
     */
    static final int IDLE_SWEEP_PER_SECOND = 20;
    static final int BACKLOG_SHARDS_PER_SECOND = 3;

    private final WorkerConfig config;
    private final PrometheusMeterRegistry registry;
    private final ClientResources resources;
    private final RedisEndpoint redis;
    private final QueueProtocol protocol;
    private final StatsReader backlog;
    private final ForecastReader forecasts;
    private final Delivery delivery;
    private final RedisHealth health;
    private final WorkerMetrics metrics;
    private final InflightRegistry inflight = new InflightRegistry();
    private final Settler settler;
    private final ProgressWrites progress;
    private final FailureLog failures = new FailureLog();
    /** A claimed task that waited this long for a handler thread makes the pool wake more threads. */
    private static final long HANDLER_RAMP_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private final HandlerPool handlers;
    private final TaskRunner runner;
    private final ClaimLoop claimLoop;
    /** Permits of groups capped at N running (DELAYQ_GROUP_MAX_RUNNING), or null when none is capped. */
    private final GroupPermits permits;
    private final Thread claimThread;
    private final List<MarkerWatcher> watchers = new ArrayList<>();
    private volatile PresenceHeartbeat presence;
    /** This process's id: in the presence registry, and in the completion records of the tasks it acks. */
    private final String workerId = PresenceHeartbeat.newId(PresenceHeartbeat.hostName());
    private final ScheduledExecutorService timers;
    private final ScheduledExecutorService planningTimer;
    private final ProbeServer ops;
    private volatile boolean stopping;

    private Worker(WorkerConfig config, Function<RedisEndpoint, Delivery> deliveryFactory, LongSupplier wallClock, OpenTelemetry otel) {
        this.config = config;
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // Two of ProcessorMetrics' meters break Prometheus' naming rules (`promtool check metrics`):
        // system_cpu_count (a gauge named _count) and process_cpu_time_ns_total (an abbreviated unit).
        registry.config().meterFilter(io.micrometer.core.instrument.config.MeterFilter.deny(
                id -> id.getName().equals("system.cpu.count") || id.getName().equals("process.cpu.time")));
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        this.resources = DefaultClientResources.builder()
                .commandLatencyRecorder(new MicrometerCommandLatencyRecorder(registry, MicrometerOptions.create()))
                .build();
        try {
            this.redis = RedisEndpoint.connect(config.redisUrl(), resources, REDIS_TIMEOUT, config.redisTlsCa());
        } catch (RuntimeException e) {
            resources.shutdown();
            throw e;
        }
        try {
            this.protocol = new QueueProtocol(redis, config.queue(), config.shards());
            this.backlog = new StatsReader(protocol.scope());
            this.forecasts = new ForecastReader(protocol.scope());
            Replies.await(protocol.verifyMeta(), REDIS_TIMEOUT);
            this.health = new RedisHealth(redis);
            Replies.await(protocol.scripts().loadAll(), REDIS_TIMEOUT);
            health.scriptsLoaded();
            this.delivery = deliveryFactory.apply(redis);
        } catch (RuntimeException e) {
            redis.close();
            resources.shutdown();
            throw e;
        }
        this.metrics = new WorkerMetrics(registry, config.queue(), config.range());
        FunctionCounter.builder("delayq.redis.failures", health, RedisHealth::failures)
                .description("Redis calls that failed without an answer (time-outs, lost connections)").tag("queue", config.queue())
                .register(registry);
        this.settler = new Settler(protocol, inflight, metrics, config.retry(), config.deadLetters(), config.lease(), failures,
                config.results(), workerId);
        this.progress = new ProgressWrites(protocol, ProgressWrites.INTERVAL);
        for (boolean accepted : new boolean[] {true, false}) {
            FunctionCounter.builder("delayq.progress.writes", progress, accepted ? ProgressWrites::written : ProgressWrites::refused)
                    .description("Progress reports of handlers written to Redis (at most one per task per second), and those refused: the lease had moved on")
                    .tag("queue", config.queue()).tag("result", accepted ? "written" : "refused").register(registry);
        }
        ServerClock clock = new ServerClock(wallClock, config.range());
        this.runner = new TaskRunner(config.queue(), new DeliveryAttempt(config.queue(), delivery, clock, config.retry(),
                new DeliveryTracing(otel, config.queue())), settler, metrics, clock, progress, config.concurrency());
        this.handlers = new HandlerPool(handlerThreads(config.concurrency(), runner.asynchronous()), HANDLER_RAMP_AFTER_NANOS,
                named("delayq-handler", false));
        WakeBoard board = new WakeBoard(config.range().from(), config.range().size());
        this.permits = config.groupCaps().any()
                ? new GroupPermits(new RunningPermits(protocol.scripts(), config.queue()), config.groupCaps(), config.lease(),
                        shard -> board.wake(shard, System.nanoTime()))
                : null;
        if (permits != null) {
            inflight.onPermitsBack(permits::back);
        }
        this.claimLoop = new ClaimLoop(new ClaimLoop.Params(protocol, config.range(), config.batchSize(), config.pollInterval(),
                config.lease(), config.rateLimit(), config.concurrency(), handlers, runner, inflight, metrics, clock, board, health,
                new ShardFaults(protocol, redis.commands(), metrics), REDIS_TIMEOUT, config.claimAhead(), config.groupWeights(), permits));
        Gauge.builder("delayq.tasks.held", claimLoop, ClaimLoop::heldCount)
                .description("Tasks claimed ahead of their due time and held until due (DELAYQ_CLAIM_AHEAD); in flight, in no handler slot")
                .tag("queue", config.queue()).register(registry);
        this.claimThread = named("delayq-claim", false).newThread(claimLoop);
        this.timers = Executors.newScheduledThreadPool(2, named("delayq-timer", true));
        this.planningTimer = Executors.newSingleThreadScheduledExecutor(named("delayq-schedules", true));
        try {
            this.ops = config.httpPort() == WorkerConfig.NO_HTTP ? null
                    : new ProbeServer(config.httpPort(), "delayq-http", registry::scrape, this::live, this::ready);
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot listen on DELAYQ_HTTP_PORT " + config.httpPort() + ": " + e.getMessage(), e);
        }
    }

    /**
     * A thread per concurrency slot for handlers, which hold theirs while they run; an asynchronous delivery's thread
     * only starts the request (building and signing it, a few tens of microseconds) and moves on, so a thread per core
     * starts them all and the concurrency bounds the requests in flight instead.
     */
    static int handlerThreads(int concurrency, boolean asynchronous) {
        return asynchronous ? Math.min(concurrency, Math.max(2, Runtime.getRuntime().availableProcessors())) : concurrency;
    }

    /** Connects, checks the queue's meta, loads scripts and starts every loop. */
    public static Worker start(WorkerConfig config, Function<RedisEndpoint, Delivery> deliveryFactory) {
        return start(config, deliveryFactory, System::currentTimeMillis);
    }

    /**
     * An embedded worker running {@code handler} in this JVM (see docs/embedded-worker.md): build {@code config}
     * with {@link WorkerConfig#embedded}. The handler's {@code start} is called before the first task, its
     * {@code stop} by {@link #shutdown} or {@link #close}.
     */
    public static Worker startEmbedded(WorkerConfig config, TaskHandler handler) {
        return start(config, redis -> HandlerDelivery.started(handler, Deliveries.context(config)));
    }

    /** As {@link #start(WorkerConfig, Function)}, with the wall clock the worker reads (tests skew it). */
    public static Worker start(WorkerConfig config, Function<RedisEndpoint, Delivery> deliveryFactory, LongSupplier wallClock) {
        return start(config, deliveryFactory, wallClock, GlobalOpenTelemetry.get());
    }

    /**
     * As {@link #start(WorkerConfig, Function)}, tracing deliveries with {@code otel} (the other overloads use
     * {@link GlobalOpenTelemetry}: the application's SDK or agent, or nothing). The caller closes {@code otel}.
     */
    public static Worker start(WorkerConfig config, Function<RedisEndpoint, Delivery> deliveryFactory, LongSupplier wallClock,
                               OpenTelemetry otel) {
        Worker w = new Worker(config, deliveryFactory, wallClock, otel);
        w.startLoops();
        LOG.info("delayq worker started: delivering to {}; {}", w.delivery.target(), config.describe());
        return w;
    }

    private void startLoops() {
        claimThread.start();
        for (Map<String, Integer> group : markerGroups()) {
            MarkerWatcher watcher = new MarkerWatcher(redis, group, MARKER_BLOCK, (dueAt, shard) -> claimLoop.wakeFor(shard, dueAt));
            watchers.add(watcher);
            named("delayq-marker", true).newThread(watcher).start();
        }
        // a failure storm's summary line comes at the end of its window even when the storm stopped
        timers.scheduleWithFixedDelay(guard(failures::tick), 1, 1, TimeUnit.SECONDS);
        LeaseKeeper keeper = permits == null ? new LeaseKeeper(protocol, inflight, config.lease())
                : new LeaseKeeper(protocol, inflight, config.lease(), permits::renewed);
        long keep = Math.max(10, keeper.interval().toMillis());
        timers.scheduleWithFixedDelay(guard(keeper), keep, keep, TimeUnit.MILLISECONDS);
        if (!config.handlerTimeout().isZero()) {
            HandlerDeadline deadline = new HandlerDeadline(inflight, settler, metrics, config.handlerTimeout(),
                    runner.asynchronous() ? "its request was cancelled" : "its thread was interrupted");
            long every = deadline.interval().toMillis();
            timers.scheduleWithFixedDelay(guard(deadline), every, every, TimeUnit.MILLISECONDS);
        }
        Reclaimer reclaimer = new Reclaimer(protocol, redis.commands(), redis.isCluster(), config.retry().maxAttempts(), config.deadLetters(), metrics,
                config.lease());
        scheduleJittered(timers, reclaimer, reclaimer::nextDelayMillis);
        if (!config.scheduleInterval().isZero()) {
            Schedules schedules = new Schedules(new AsyncDelayQueueClient(protocol, DelayQueueClient.DEFAULT_MAX_PAYLOAD_BYTES),
                    new ScheduleStore(redis, config.queue(), REDIS_TIMEOUT), REDIS_TIMEOUT);
            SchedulePlanning planning = new SchedulePlanning(new SchedulePlanning.Params(schedules.planner(config.scheduleRules()),
                    new ScheduleMetrics(registry, config.queue()), config.scheduleInterval()));
            // its own thread: a long turn (thousands of schedules) must not delay the lease keeper's renewals
            planningTimer.execute(guard(planning));
            scheduleJittered(planningTimer, planning, planning::nextDelayMillis);
        }
        List<Integer> owned = config.range().shards().boxed().toList();
        io.micrometer.core.instrument.Counter strays = io.micrometer.core.instrument.Counter.builder("delayq.strays.moved")
                .description("Tasks written under an earlier shard count (a stale hand-written producer) that the stray sweep moved to their shard")
                .tag("queue", config.queue()).register(registry);
        StraySweep straySweep = new StraySweep(StraySweep.Params.of(protocol, owned, strays::increment));
        // on the planner's thread: its calls wait for Redis, and the lease keeper's timers must not wait behind them
        planningTimer.scheduleWithFixedDelay(guard(straySweep), StraySweep.TICK.toMillis(), StraySweep.TICK.toMillis(), TimeUnit.MILLISECONDS);
        IdleSweep sweep = new IdleSweep(new IdleSweep.Params(redis.commands(), new ShardPace(owned, config.pollInterval(), IDLE_SWEEP_PER_SECOND),
                wakingSets(), (dueAt, shard) -> claimLoop.wakeFor(shard, dueAt)));
        timers.scheduleWithFixedDelay(guard(sweep), IdleSweep.TICK_MILLIS, IdleSweep.TICK_MILLIS, TimeUnit.MILLISECONDS);
        ShardPace backlog = new ShardPace(owned, BACKLOG_REFRESH, BACKLOG_SHARDS_PER_SECOND);
        timers.scheduleWithFixedDelay(guard(() -> backlog.take(System.nanoTime(), this::refreshBacklog)), 0, IdleSweep.TICK_MILLIS,
                TimeUnit.MILLISECONDS);
        String host = PresenceHeartbeat.hostName();
        presence = new PresenceHeartbeat(new PresenceHeartbeat.Params(new PresenceRegistry(redis, config.queue(), REDIS_TIMEOUT),
                workerId, config.range(), io.delayq.ProductVersion.version(), host, inflight, PresenceHeartbeat.INTERVAL,
                metrics::settledCount));
        timers.scheduleWithFixedDelay(guard(presence), 0, PresenceHeartbeat.INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        if (protocol.buckets() == null) {
            timers.scheduleWithFixedDelay(guard(this::followUpgrade), PROTOCOL_CHECK.toMillis(), PROTOCOL_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A queue upgraded in place while this worker runs (docs/protocol3.md, "Upgrade in place") is spoken to as protocol 3
     * from the next check on: one HGET of the meta per check. The tasks this worker claimed before finish through
     * protocol 2's scripts (QueueProtocol routes by origin).
     */
    private void followUpgrade() {
        if (protocol.buckets() != null) {
            return;
        }
        protocol.refreshProtocol().thenAccept(p -> {
            if (p == QueueProtocol.BUCKETED) {
                LOG.info("queue '{}' was upgraded to protocol 3 in place: claiming from its buckets from now on", config.queue());
            }
        });
    }

    /** This worker's id in the queue's presence registry (the console's worker list), null before it started. */
    public String presenceId() {
        return presence == null ? null : presence.id();
    }

    /** Standalone Redis takes one BZPOPMIN over all markers; Cluster needs one per shard (a slot each). */
    private List<Map<String, Integer>> markerGroups() {
        List<Map<String, Integer>> groups = new ArrayList<>();
        Map<String, Integer> all = new HashMap<>();
        config.range().shards().forEach(s -> {
            String marker = protocol.keys(s).marker();
            if (redis.isCluster()) {
                groups.add(Map.of(marker, s));
            } else {
                all.put(marker, s);
            }
        });
        if (!all.isEmpty()) {
            groups.add(all);
        }
        return groups;
    }

    private void scheduleJittered(ScheduledExecutorService on, Runnable job, LongSupplier nextDelayMillis) {
        on.schedule(() -> {
            guard(job).run();
            if (!stopping) {
                scheduleJittered(on, job, nextDelayMillis);
            }
        }, nextDelayMillis.getAsLong(), TimeUnit.MILLISECONDS);
    }

    /** The sets of a shard whose head the idle sweep reads: the due tasks' (and groups') of the queue's protocol. */
    private java.util.function.IntFunction<List<String>> wakingSets() {
        // asked per visit: a queue upgraded in place switches while the worker runs
        return s -> protocol.buckets() == null ? List.of(protocol.keys(s).due(0), protocol.keys(s).groups())
                // and protocol 2's due sets and grouped tasks, where its tasks (a bare ZADD, an upgrade, a stale producer)
                // wait until a claim adopts them
                // (the groups' turns are the same key on protocol 3)
                : java.util.stream.Stream.concat(io.delayq.bucket.BucketLayout.windowIndexes(config.queue(), s).stream(),
                        java.util.stream.Stream.of(protocol.keys(s).groups(), protocol.keys(s).due(0), protocol.keys(s).due(1),
                                protocol.keys(s).due(2), protocol.keys(s).groupedDue())).toList();
    }

    /**
     * The shard's backlog and due forecast gauges. Shard by shard: one shard whose keys have the wrong type must not
     * blank the others' gauges nor look like a Redis outage.
     */
    private void refreshBacklog(int shard) {
        backlog.stats(shard).whenComplete((stats, e) -> answered(e, () -> metrics.backlog(stats)));
        forecasts.forecast(shard, DueForecast.DEFAULT_WINDOWS).whenComplete((forecast, e) -> answered(e, () -> metrics.forecast(shard, forecast)));
    }

    private void answered(Throwable failure, Runnable onAnswer) {
        if (failure == null) {
            onAnswer.run();
            health.ok();
        } else if (!ShardFaults.isDataFault(failure)) {
            health.failed(failure);
        }
    }

    private static Runnable guard(Runnable r) {
        return () -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.debug("periodic task failed: {}", e.toString());
            }
        };
    }

    private static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    /** The loops are alive (for /healthz). */
    public boolean live() {
        long stale = Math.max(config.pollInterval().toNanos() * 3, TimeUnit.SECONDS.toNanos(30));
        return stopping || claimThread.isAlive() && System.nanoTime() - claimLoop.lastLoopNanos() < stale;
    }

    /** Redis reachable, scripts loaded and not stopping (for /readyz). */
    public boolean ready() {
        return !stopping && health.ready();
    }

    /** The port of /metrics, /healthz and /readyz; an embedded worker has none unless DELAYQ_HTTP_PORT was given. */
    public int httpPort() {
        if (ops == null) {
            throw new IllegalStateException("this worker serves no HTTP endpoint (set DELAYQ_HTTP_PORT, 0 for a free port)");
        }
        return ops.port();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public WorkerConfig config() {
        return config;
    }

    /**
     * Graceful stop: no new claims, in-flight handlers get up to {@code grace} to finish and their
     * outcomes reach Redis; whatever did not finish is re-delivered after its lease.
     */
    public boolean shutdown(Duration grace) {
        if (stopping) {
            return true;
        }
        claimLoop.stop();
        stopping = true;
        long deadline = System.nanoTime() + grace.toNanos();
        LOG.info("delayq worker stopping: no new claims, {} task(s) in flight, grace {} ms", inflight.size(), grace.toMillis());
        try {
            claimThread.join(Math.max(1, grace.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // claims already sent still hand their tasks to the handlers
        claimLoop.awaitClaims(REDIS_TIMEOUT.plusSeconds(1));
        // tasks claimed ahead come due within the claim-ahead window: they run now rather than after their lease
        if (!claimLoop.awaitHeld(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
            LOG.warn("grace period over with {} task(s) claimed ahead and not yet due: they are re-delivered after their lease",
                    claimLoop.heldCount());
        }
        handlers.shutdown();
        boolean finished;
        try {
            finished = handlers.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finished = false;
        }
        // a webhook's requests are still in flight once the threads that started them are done
        finished = runner.awaitDeliveries(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))) && finished;
        boolean settled = settler.drain(Duration.ofNanos(Math.max(TimeUnit.SECONDS.toNanos(2), deadline - System.nanoTime())));
        if (!finished || !settled) {
            LOG.warn("grace period over with {} task(s) unfinished: they are re-delivered after their lease", inflight.size());
        }
        close();
        LOG.info("delayq worker stopped");
        return finished && settled;
    }

    @Override
    public void close() {
        stopping = true;
        if (claimLoop != null) {
            claimLoop.close();
        }
        watchers.forEach(MarkerWatcher::close);
        if (timers != null) {
            timers.shutdownNow();
        }
        if (progress != null) {
            progress.close();
        }
        if (presence != null && redis != null) {
            presence.leave();
        }
        if (planningTimer != null) {
            planningTimer.shutdownNow();
        }
        if (handlers != null) {
            handlers.shutdownNow();
        }
        if (settler != null) {
            settler.close();
        }
        if (permits != null) {
            try {
                Replies.await(permits.close(inflight.all()), REDIS_TIMEOUT);
            } catch (RuntimeException e) {
                LOG.debug("permits not given back at close (they expire with their hold): {}", e.toString());
            }
        }
        if (delivery != null) {
            delivery.close();
        }
        if (ops != null) {
            ops.close();
        }
        if (redis != null) {
            redis.close();
        }
        resources.shutdown();
    }
}
