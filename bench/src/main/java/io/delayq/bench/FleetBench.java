package io.delayq.bench;

import io.delayq.DurationText;
import io.delayq.bench.fleet.FleetPolicy;
import io.delayq.bench.fleet.FleetRun;
import io.delayq.bench.fleet.FleetSimulator;
import io.delayq.bench.fleet.LiveFleet;
import io.delayq.bench.fleet.Scenario;
import io.delayq.bench.fleet.Scenarios;
import io.delayq.bench.fleet.WorkerThroughput;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.resource.AutoscalingMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What forecast autoscaling gains over reactive autoscaling: the operator's own decision ({@code Autoscaler.decide},
 * Internal mode against Forecast mode, same bounds and stabilisation) driving a simulated worker Deployment through a
 * midnight spike, a bursty day and a long quiet before one task. The per-replica throughput is measured from a real
 * worker on a real Redis and capped at what the assumed handler allows; the simulator is checked once against real
 * in-process workers driven by the same decision loop on a small wave. Prints the tables and writes them into
 * docs/bench.md (its {@code bench:fleet-autoscaling} section) unless {@code --no-docs}.
 * <pre>
 *   ./bench/fleet.sh [--startup 30s] [--interval 10s] [--warmup 40s] [--handler-ms 10] [--concurrency 16] [--target-p99 10s]
 *                    [--no-validation] [--no-docs]
 * </pre>
 */
public final class FleetBench {
    static final String SECTION = "fleet-autoscaling";
    private static final long STEP_MS = 100;
    private static final int MEASURE_SHARDS = 16;

    /** @param warmup spec.autoscaling.warmup; null: the start-up plus one check interval */
    record Settings(Duration startup, Duration interval, Duration warmup, long handlerMs, int concurrency, Duration targetP99, int measureTasks,
                    boolean validation, boolean docs) {
        Duration warmupOrDefault() {
            // Pods must be asked for a start-up plus one check interval ahead: a task enters the warmup window up to
            // an interval before the check that sees it.
            return warmup != null ? warmup : startup.plus(interval);
        }
    }

    /** The per-replica throughput the simulation uses: what a real worker fired, capped by the assumed handler. */
    record Throughput(double measuredNoop, long handlerMs, int concurrency) {
        double handlerCap() {
            return concurrency * 1000.0 / handlerMs;
        }

        double used() {
            return Math.min(measuredNoop, handlerCap());
        }
    }

    record Comparison(Scenario scenario, FleetRun reactive, FleetRun forecast) {
    }

    record Validation(String what, FleetRun live, FleetRun simulated) {
    }

    private FleetBench() {
    }

    public static void main(String[] args) throws Exception {
        Settings s = parse(args);
        String loadBefore = MeasuredOn.loadAverage();
        List<Validation> validations = new ArrayList<>();
        Throughput throughput;
        Throughput liveThroughput = null;
        String redis;
        LiveFleet.Settings live = new LiveFleet.Settings(5_000, 2_000, 1_000, 4, 4, 20);
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no")) {
            try (RedisProbe probe = new RedisProbe(server.url())) {
                redis = probe.version() + " (" + server.origin() + ")";
            }
            System.out.printf("measuring one worker's throughput: %,d no-op tasks already due, %d shards, default settings%n", s.measureTasks(),
                    MEASURE_SHARDS);
            double noop = new WorkerThroughput(server.url(), MEASURE_SHARDS).measure(Math.max(1_000, s.measureTasks() / 5), s.measureTasks());
            throughput = new Throughput(noop, s.handlerMs(), s.concurrency());
            System.out.printf("T measured (no-op handler): %,.0f tasks/s per worker; assumed handler %d ms at concurrency %d caps it at %,.0f/s; "
                    + "the simulation uses T = %,.0f tasks/s per replica%n", noop, s.handlerMs(), s.concurrency(), throughput.handlerCap(), throughput.used());
            if (s.validation()) {
                liveThroughput = new Throughput(noop, live.handlerMs(), live.concurrency());
                validations.addAll(validate(server.url(), live, liveThroughput));
            }
        }
        List<Comparison> comparisons = simulate(s, throughput);
        String rendered = render(s, throughput, comparisons, live, liveThroughput, validations, redis, loadBefore, MeasuredOn.loadAverage());
        System.out.println();
        System.out.println(rendered);
        if (s.docs()) {
            Path file = Path.of("docs/bench.md");
            DocSections.write(file, SECTION, rendered);
            System.out.println("written to " + file);
        }
    }

    static FleetPolicy policy(Settings s, Throughput t) {
        return new FleetPolicy(s.warmupOrDefault(), Duration.ofMinutes(15), Duration.ofMinutes(5),
                Math.max(1, Math.round(t.used() * s.targetP99().toMillis() / 1000.0)), t.used());
    }

    private static List<Comparison> simulate(Settings s, Throughput t) {
        FleetPolicy policy = policy(s, t);
        FleetSimulator simulator = new FleetSimulator(new FleetSimulator.Settings(s.startup().toMillis(), s.interval().toMillis(),
                s.interval().toMillis() / 2, t.used(), STEP_MS));
        List<Comparison> out = new ArrayList<>();
        for (Scenario scenario : Scenarios.all()) {
            long t0 = System.nanoTime();
            FleetRun reactive = simulator.run(scenario, policy.spec(AutoscalingMode.Internal, scenario.minReplicas(), scenario.maxReplicas()));
            FleetRun forecast = simulator.run(scenario, policy.spec(AutoscalingMode.Forecast, scenario.minReplicas(), scenario.maxReplicas()));
            out.add(new Comparison(scenario, reactive, forecast));
            System.out.printf("simulated %s (%,d tasks, %s) in %.1f s%n", scenario.name(), scenario.tasks().size(),
                    DurationText.format(Duration.ofMillis(scenario.end() - scenario.start())), (System.nanoTime() - t0) / 1e9);
        }
        return out;
    }

    /** The small wave on real workers and in the simulator, each mode. */
    private static List<Validation> validate(String redisUrl, LiveFleet.Settings live, Throughput t) {
        FleetPolicy policy = new FleetPolicy(Duration.ofMillis(live.startupMs() + live.checkIntervalMs()), Duration.ofMinutes(1),
                Duration.ofSeconds(20), Math.round(t.used() * 2), t.used());
        FleetSimulator simulator = new FleetSimulator(new FleetSimulator.Settings(live.startupMs(), live.checkIntervalMs(), live.checkPhaseMs(),
                t.used(), STEP_MS));
        Scenario shape = Scenarios.smallWave(Scenarios.MIDNIGHT);
        List<Validation> out = new ArrayList<>();
        for (AutoscalingMode mode : List.of(AutoscalingMode.Internal, AutoscalingMode.Forecast)) {
            System.out.printf("validation, %s: real workers on the small wave (%,d tasks, ~%.0f s)%n", mode, shape.tasks().size(), shape.seconds());
            FleetRun real = new LiveFleet(redisUrl, live).run("fleet-live-" + mode.name().toLowerCase(Locale.ROOT), Scenarios::smallWave,
                    policy.spec(mode, shape.minReplicas(), shape.maxReplicas()), trace("real", 0));
            FleetRun simulated = simulator.run(shape, policy.spec(mode, shape.minReplicas(), shape.maxReplicas()), trace("simulated", shape.start()));
            out.add(new Validation(mode.name(), real, simulated));
            System.out.printf("  real: lag p99 %,d ms, %.0f replica-s; simulated: lag p99 %,d ms, %.0f replica-s%n", real.lag().p99(),
                    real.replicaSeconds(), simulated.lag().p99(), simulated.replicaSeconds());
        }
        return out;
    }

    /** Prints each change of the replica count, at seconds from the scenario's start, when -Dbench.fleet.trace=true. */
    private static FleetSimulator.Trace trace(String who, long origin) {
        if (!Boolean.getBoolean("bench.fleet.trace")) {
            return FleetSimulator.Trace.NONE;
        }
        return (at, due, ready, replicas, reason) -> System.out.printf("    %s %6.1f s: due %,d, ready %s -> %d replicas%s%n", who, (at - origin) / 1000.0, due,
                ready < 0 ? "?" : String.valueOf(ready), replicas, reason == null ? "" : " (" + reason + ")");
    }

    private static Settings parse(String[] args) {
        Duration startup = Duration.ofSeconds(30);
        Duration interval = Duration.ofSeconds(10);
        Duration warmup = null;
        long handlerMs = 10;
        int concurrency = 16;
        Duration target = Duration.ofSeconds(10);
        int measureTasks = 50_000;
        boolean validation = true;
        boolean docs = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--startup" -> startup = DurationText.require("--startup", args[++i]);
                case "--interval" -> interval = DurationText.require("--interval", args[++i]);
                case "--warmup" -> warmup = DurationText.require("--warmup", args[++i]);
                case "--handler-ms" -> handlerMs = Long.parseLong(args[++i]);
                case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                case "--target-p99" -> target = DurationText.require("--target-p99", args[++i]);
                case "--measure-tasks" -> measureTasks = Integer.parseInt(args[++i]);
                case "--no-validation" -> validation = false;
                case "--no-docs" -> docs = false;
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (use --startup 30s, --interval 10s, --warmup 40s, --handler-ms 10, "
                        + "--concurrency 16, --target-p99 10s, --measure-tasks 50000, --no-validation, --no-docs)");
            }
        }
        if (handlerMs < 1 || concurrency < 1 || measureTasks < 1_000) {
            throw new IllegalArgumentException("--handler-ms and --concurrency must be at least 1, --measure-tasks at least 1000");
        }
        if (interval.toMillis() % (2 * STEP_MS) != 0 || startup.isNegative()) {
            throw new IllegalArgumentException("--interval must be a multiple of " + 2 * STEP_MS + " ms, --startup not negative");
        }
        return new Settings(startup, interval, warmup, handlerMs, concurrency, target, measureTasks, validation, docs);
    }

    static String render(Settings s, Throughput t, List<Comparison> comparisons, LiveFleet.Settings live, Throughput liveT,
                         List<Validation> validations, String redis, String loadBefore, String loadAfter) {
        FleetPolicy p = policy(s, t);
        long target = s.targetP99().toMillis();
        StringBuilder md = new StringBuilder("## Autoscaling: forecast against reactive\n\n");
        md.append("`./bench/fleet.sh` (`io.delayq.bench.FleetBench`, ~4 min; options `--startup 30s --interval 10s --warmup 40s --handler-ms 10 ")
                .append("--concurrency 16 --target-p99 10s --no-validation --no-docs`). A discrete-time simulation (100 ms steps) of one worker ")
                .append("Deployment whose replica count is decided by the operator's own `Autoscaler.decide` every check, with the backlog ")
                .append("and the due forecast (the windows `ForecastPolicy.windowsFor` gives) computed from the simulated waiting tasks. ")
                .append("`Internal` is the reactive mode (`ceil(due / targetDuePerReplica)`), `Forecast` adds the forecast's rules; ")
                .append("both get the same bounds, backlog target and stabilisation.\n\n");
        md.append("- **Measured**: one real in-process worker (default settings, ").append(MEASURE_SHARDS)
                .append(" shards) drained ").append(String.format("%,d", s.measureTasks())).append(" no-op tasks already due on a redis-server ")
                .append(redis).append(" at **").append(String.format("%,.0f", t.measuredNoop())).append(" tasks/s**.\n");
        md.append("- **Assumed**: a handler taking ").append(t.handlerMs()).append(" ms at concurrency ").append(t.concurrency())
                .append(", at most ").append(String.format("%,.0f", t.handlerCap())).append("/s per pod; the simulation uses T = ")
                .append(String.format("**%,.0f tasks/s per replica**", t.used())).append(" (the lower), each ready pod firing at most that, ")
                .append("earliest due first. Pod start-up ").append(DurationText.format(s.startup())).append(" (paid for, not firing); a check every ")
                .append(DurationText.format(s.interval())).append(" (the operator's `DELAYQ_BACKLOG_INTERVAL` default), half an interval ")
                .append("off the scenarios' round times.\n");
        md.append("- **Policy** (both modes): `targetDuePerReplica: ").append(p.targetDuePerReplica()).append("` (T × the target lag), ")
                .append("`scaleDownStabilization: 5m`; Forecast: `warmup: ").append(DurationText.format(p.warmup()))
                .append(s.warmup() == null ? "` (start-up + one check interval)" : "`").append(", `horizon: 15m`, `targetTasksPerReplicaPerSecond: ")
                .append(String.format("%.0f", t.used())).append("`. Bounds per scenario below.\n");
        md.append("- **Target**: firing lag p99 within ").append(DurationText.format(s.targetP99()))
                .append(". Lag = fired − due; replica-seconds count every pod from being asked for (starting pods included) over the ")
                .append("scenario's span, the same span for both modes. The simulator checks that every task fired exactly once and never early.\n\n");
        md.append("| scenario | bounds | mode | lag p50 | lag p99 | lag max | p99 within target | replica-seconds | peak replicas | scalings | forecast ÷ reactive (p99 / replica-s) |\n");
        md.append("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|\n");
        for (Comparison c : comparisons) {
            for (FleetRun r : List.of(c.reactive(), c.forecast())) {
                boolean isForecast = r == c.forecast();
                md.append(String.format("| %s | %d–%d | %s | %s | %s | %s | %s | %,.0f | %d | %d | %s |%n", isForecast ? "" : c.scenario().name() + " ("
                                + String.format("%,d", c.scenario().tasks().size()) + (c.scenario().tasks().size() == 1 ? " task)" : " tasks)"), c.scenario().minReplicas(), c.scenario().maxReplicas(),
                        isForecast ? "Forecast" : "Internal (reactive)", ms(r.lag().p50()), ms(r.lag().p99()), ms(r.lag().max()),
                        r.keeps(target) ? "yes" : "**no**", r.replicaSeconds(), r.peakReplicas(), r.scalings(),
                        isForecast ? ratio(c.forecast().lag().p99(), c.reactive().lag().p99()) + " / "
                                + ratio(c.forecast().replicaSeconds(), c.reactive().replicaSeconds()) : ""));
            }
        }
        md.append("\nScenarios: ");
        md.append(String.join("; ", comparisons.stream().map(c -> "*" + c.scenario().name() + "*: " + c.scenario().load()).toList())).append(".\n\n");
        md.append(reading(s, t, comparisons));
        if (!validations.isEmpty()) {
            md.append("\n### The simulator against real workers\n\n");
            md.append("Once, small: the scenario *small wave* (").append(Scenarios.smallWave(0).load()).append(", bounds 1–8) with real in-process ")
                    .append("workers as the pods (").append(live.shards()).append(" shards, a handler sleeping ").append(live.handlerMs())
                    .append(" ms at concurrency ").append(live.concurrency()).append(", started ").append(live.startupMs() / 1000)
                    .append(" s after being asked for, stopped gracefully when scaled down) and the same loop: every ")
                    .append(live.checkIntervalMs() / 1000).append(" s the backlog (`StatsReader`) and forecast (`ForecastReader`) read from Redis, ")
                    .append("then `Autoscaler.decide`; lag measured in the handler. The simulator ran the same scenario, policy (warmup ")
                    .append((live.startupMs() + live.checkIntervalMs()) / 1000).append(" s, horizon 1m, stabilisation 20 s, `targetDuePerReplica` ")
                    .append(Math.round(liveT.used() * 2)).append(") and T = ").append(String.format("%,.0f", liveT.used()))
                    .append("/s (the handler's concurrency ÷ its time).\n\n");
            md.append("| mode | lag p99 real | lag p99 simulated | simulated ÷ real | replica-s real | replica-s simulated | simulated ÷ real | peak replicas real / simulated |\n");
            md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Validation v : validations) {
                md.append(String.format("| %s | %s | %s | %s | %,.0f | %,.0f | %s | %d / %d |%n", v.what(), ms(v.live().lag().p99()), ms(v.simulated().lag().p99()),
                        ratio(v.simulated().lag().p99(), v.live().lag().p99()), v.live().replicaSeconds(), v.simulated().replicaSeconds(),
                        ratio(v.simulated().replicaSeconds(), v.live().replicaSeconds()), v.live().peakReplicas(), v.simulated().peakReplicas()));
            }
            md.append("\nWhere they part: the backlog the real loop reads (stats.lua's `due`, as the operator reads it) leaves out the tasks ")
                    .append("the workers have already claimed: a worker claims tasks due within `DELAYQ_CLAIM_AHEAD` (100 ms) ahead, up to ")
                    .append("a batch of them, and buffers a little work (its claim buffer), so on a wave due at once the operator reads less backlog than ")
                    .append("the simulator, which counts every task not yet fired, and may ask for fewer pods (the peak column); the pods ")
                    .append("are then paid for less. The simulator counts a pod ready exactly a start-up after it was asked for; a real ")
                    .append("in-process worker adds its own start.\n");
        }
        md.append("\nLoad average ").append(loadBefore).append(" → ").append(loadAfter).append(" (a shared 2-core machine).\n");
        return md.toString();
    }

    /** What the table says, from this run's figures and the policy's arithmetic. */
    static String reading(Settings s, Throughput t, List<Comparison> comparisons) {
        FleetPolicy p = policy(s, t);
        long target = s.targetP99().toMillis();
        double warmupSeconds = p.warmup().toMillis() / 1000.0;
        long kept = comparisons.stream().filter(c -> c.forecast().keeps(target)).count();
        long keptReactive = comparisons.stream().filter(c -> c.reactive().keeps(target)).count();
        double low = comparisons.stream().mapToDouble(c -> c.forecast().replicaSeconds() / c.reactive().replicaSeconds()).min().orElse(Double.NaN);
        double high = comparisons.stream().mapToDouble(c -> c.forecast().replicaSeconds() / c.reactive().replicaSeconds()).max().orElse(Double.NaN);
        StringBuilder md = new StringBuilder(String.format("In this run Forecast kept the target in %d of %d scenarios, Internal in %d, with %.2f to %.2f "
                + "times Internal's replica-seconds.%n%n", kept, comparisons.size(), keptReactive, low, high));
        double intervalSeconds = s.interval().toMillis() / 1000.0;
        long slicePods = (long) Math.ceil(Scenarios.SPIKE / intervalSeconds / t.used());
        long windowPods = (long) Math.ceil(Scenarios.SPIKE / warmupSeconds / t.used());
        long burstPods = (long) Math.ceil(Scenarios.INSTANT_BURST / intervalSeconds / t.used());
        md.append(String.format("- **An instant wave** (the midnight spike) is sized by the arrival slice, the last check interval of the "
                + "lead window: %,d / %s = %,.0f/s, %d pods at %,.0f/s, asked for at the check that sees the wave in the slice and ready "
                + "when it falls due; they fire it in about one interval (%.1f s), so a p99 target shorter than the check interval is "
                + "out of reach. Averaged over the whole `warmup` window the same wave would ask for %d pods and take about one warmup. "
                + "The replica-seconds are a little above Internal's: the pods are up at 00:00 instead of a start-up later.%n",
                Scenarios.SPIKE, DurationText.format(s.interval()), Scenarios.SPIKE / intervalSeconds, slicePods, t.used(),
                Scenarios.SPIKE / (double) (slicePods * t.used()), windowPods));
        md.append(String.format("- **Bursts spread over a minute or more** (the bursty day) are what the forecast is for: their rate is in the "
                + "windows before they are due, so the pods are up when they start, while Internal sees each only as backlog, a check and "
                + "a start-up late, and overshoots (it sizes by the backlog that piled up meanwhile). The burst of %,d due at once "
                + "counts %,.0f/s in its arrival slice, %d pods, which fire it in %.1f s: the day's longest lag under Forecast.%n",
                Scenarios.INSTANT_BURST, Scenarios.INSTANT_BURST / intervalSeconds, burstPods,
                Scenarios.INSTANT_BURST / (double) (Math.max(1, burstPods) * t.used())));
        md.append(String.format("- **After a long quiet at zero**, Internal wakes only once the task is due and seen (up to one check interval) "
                + "and a pod has started (%s); Forecast wakes a warmup before it. Both then keep the pod for the stabilisation window, "
                + "so they cost the same.%n", DurationText.format(s.startup())));
        return md.toString();
    }

    private static String ms(long ms) {
        return ms < 1000 ? ms + " ms" : String.format("%.1f s", ms / 1000.0);
    }

    private static String ratio(double a, double b) {
        return b == 0 ? (a == 0 ? "1.00" : "—") : String.format("%.2f", a / b);
    }
}
