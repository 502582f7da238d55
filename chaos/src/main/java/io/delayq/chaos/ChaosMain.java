package io.delayq.chaos;

import io.delayq.chaos.fleet.WorkerBinaries;
import io.delayq.chaos.report.ReliabilityReport;
import io.delayq.chaos.report.ScenarioResult;
import io.delayq.chaos.scenario.Scenario;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code ./chaos/run.sh [--short] [--only a,b] [--seed n] [--report file] [--out dir]}: runs the
 * chaos scenarios against real redis-server processes and packaged worker processes, prints each
 * result, and writes the summary table into {@code docs/reliability.md}. Exit code 1 when an
 * invariant broke (a task lost, a re-delivery without a lease expiry…), 2 on bad arguments.
 */
public final class ChaosMain {
    private ChaosMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean shortRun = false;
        Set<String> only = new LinkedHashSet<>();
        long seed = System.currentTimeMillis();
        Path root = Path.of(System.getProperty("delayq.repo.root", ".")).toAbsolutePath().normalize();
        Path report = null;
        Path out = root.resolve("chaos/target/chaos-run");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--short" -> shortRun = true;
                case "--only" -> only.addAll(Arrays.asList(value(args, ++i, "--only").split(",")));
                case "--seed" -> seed = Long.parseLong(value(args, ++i, "--seed"));
                case "--report" -> report = Path.of(value(args, ++i, "--report"));
                case "--out" -> out = Path.of(value(args, ++i, "--out"));
                default -> {
                    System.err.println("unknown argument " + args[i]
                            + "; usage: run.sh [--short] [--only scenario,...] [--seed n] [--report file] [--out dir]");
                    System.exit(2);
                }
            }
        }
        String profile = shortRun ? "short" : "full";
        if (report == null) {
            // a partial run (--only) must not replace the suite's figures in the docs with a subset
            report = only.isEmpty() ? root.resolve("docs/reliability.md") : out.resolve("reliability.md");
        }
        List<Scenario> scenarios = ChaosSuite.select(shortRun ? ChaosSuite.shortRun() : ChaosSuite.full(), only);
        ChaosContext ctx = new ChaosContext(WorkerBinaries.locate(root), out, seed, System.out);
        ctx.log("%s run: %s (seed %d, files under %s)", profile, scenarios.stream().map(Scenario::key).toList(), seed, out);
        long t0 = System.currentTimeMillis();
        List<ScenarioResult> results = ChaosSuite.run(scenarios, ctx);
        String command = "./chaos/run.sh" + (shortRun ? " --short" : "") + (only.isEmpty() ? "" : " --only " + String.join(",", only));
        String section = ReliabilityReport.render(profile, command, seed, System.currentTimeMillis() - t0, results);
        ReliabilityReport.write(report, profile, section);
        System.out.println();
        System.out.println(section);
        System.out.println("written to " + report);
        boolean passed = results.stream().allMatch(ScenarioResult::passed);
        System.exit(passed ? 0 : 1);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            System.err.println(option + " needs a value");
            System.exit(2);
        }
        return args[i];
    }
}
