package io.delayq.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HelpAndUsageTest {
    @Test
    void everyCommandHasHelpWithExamplesAndExitCodes() {
        List<List<String>> paths = new ArrayList<>();
        collect(Cli.commandLine(), new ArrayList<>(), paths);
        assertThat(paths).extracting(p -> String.join(" ", p)).contains("enqueue", "cancel", "reschedule", "inspect", "stats", "top",
                "dead", "dead list", "dead replay", "dead purge", "backfill", "check");

        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CliRun r = CliRun.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(String.join(" ", args)).isZero();
            assertThat(r.out()).as(String.join(" ", args)).contains("Usage: delayq", "Examples:", "Exit codes:", "  0 ");
            // an example wrapped by the help formatter would no longer be a command one can copy
            String examples = r.out().substring(r.out().indexOf("Examples:") + "Examples:".length());
            assertThat(examples.lines().filter(l -> !l.isBlank())).as(String.join(" ", args)).allMatch(l -> l.startsWith("  "));
        }
    }

    private static void collect(CommandLine cmd, List<String> path, List<List<String>> out) {
        for (var e : cmd.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            out.add(p);
            collect(e.getValue(), p, out);
        }
    }

    @Test
    void rootWithoutCommandIsUsage_versionPrintsTheVersion() {
        CliRun none = CliRun.run();
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("a command is required", "Commands:");

        CliRun version = CliRun.run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("delayq 0.");
    }

    @Test
    void unknownOptionIsOneLineNamingItAndTheHelp() {
        CliRun r = CliRun.run("stats", "--colour");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err()).contains("delayq stats: Unknown option: '--colour'", "(see 'delayq stats --help')");
    }

    @Test
    void aWorkerCanAddItsSubcommand() {
        @CommandLine.Command(name = "worker")
        class Worker implements Runnable {
            boolean ran;

            @Override
            public void run() {
                ran = true;
            }
        }
        Worker worker = new Worker();
        CommandLine cmd = Cli.commandLine();
        cmd.addSubcommand(worker);

        assertThat(cmd.execute("worker")).isZero();
        assertThat(worker.ran).isTrue();
    }
}
