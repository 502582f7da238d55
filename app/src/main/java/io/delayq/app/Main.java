package io.delayq.app;

import io.delayq.settings.ConsoleVariables;
import io.delayq.app.console.ConsoleCommand;
import io.delayq.app.demo.DemoCommand;
import io.delayq.app.relay.RelayCommand;
import io.delayq.app.worker.WorkerCommand;
import io.delayq.cli.Cli;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * The {@code delayq} executable. With no arguments (the container's default) it runs a worker
 * configured by environment variables; {@code worker} does the same, {@code outbox-relay} runs only the outbox
 * relay, {@code demo} runs the local
 * demonstration, and every other command is the admin CLI ({@code stats}, {@code inspect}, …).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        commonPoolOfTwo();
        System.exit(run(args));
    }

    /**
     * A common fork-join pool of at least two threads, set before anything starts it. The JDK HTTP client completes
     * every asynchronous request on that pool, and with one thread (the JVM's choice on fewer than three cores) the
     * pool starts a new thread per request: a webhook worker would then fall back to a thread per request in flight
     * (docs/worker.md). A parallelism given on the command line wins.
     */
    static void commonPoolOfTwo() {
        String parallelism = "java.util.concurrent.ForkJoinPool.common.parallelism";
        if (System.getProperty(parallelism) == null && Runtime.getRuntime().availableProcessors() < 3) {
            System.setProperty(parallelism, "2");
        }
    }

    static int run(String[] args) {
        if (args.length == 0) {
            return WorkerCommand.run(System.getenv());
        }
        boolean admin = !java.util.Set.of("worker", "outbox-relay", "demo", "console").contains(args[0]);
        if (admin && System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            // admin commands print their own one-line errors; Lettuce's logs would only add noise
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        return commandLine().execute(args);
    }

    static CommandLine commandLine() {
        CommandLine cmd = Cli.commandLine();
        cmd.addSubcommand(new WorkerSubcommand());
        cmd.addSubcommand(new OutboxRelaySubcommand());
        cmd.addSubcommand(new DemoSubcommand());
        cmd.addSubcommand(new ConsoleSubcommand());
        return cmd;
    }

    @Command(name = "worker", mixinStandardHelpOptions = true,
            description = {"Run a worker configured by DELAYQ_* environment variables (see docs/worker.md).",
                    "SIGTERM or Ctrl-C stops it gracefully (exit 0); a bad configuration exits 2, an unreachable Redis 3."})
    static final class WorkerSubcommand implements Callable<Integer> {
        @Override
        public Integer call() {
            return WorkerCommand.run(System.getenv());
        }
    }

    @Command(name = "outbox-relay", mixinStandardHelpOptions = true,
            description = {"Run only the outbox relay: copy committed rows of the PostgreSQL outbox (DELAYQ_OUTBOX_URL) into Redis,",
                    "and the backstop when DELAYQ_OUTBOX_BACKSTOP_QUERY is set. The worker's DELAYQ_* variables (Redis, queue, shards,",
                    "HTTP port for /metrics, /healthz, /readyz); see docs/outbox.md. SIGTERM stops it (exit 0); a bad configuration",
                    "exits 2, an unreachable Redis 3."})
    static final class OutboxRelaySubcommand implements Callable<Integer> {
        @Override
        public Integer call() {
            return RelayCommand.run(System.getenv());
        }
    }

    @Command(name = "console", mixinStandardHelpOptions = true,
            description = {"Run the web console (queues, tasks, dead letters; pause, cancel, reschedule, replay) on http://127.0.0.1:8090/.",
                    "Uses DELAYQ_REDIS_URL / REDIS_URL when set (read-only unless DELAYQ_CONSOLE_TOKEN is set); otherwise starts a local",
                    "redis-server with a sample queue and prints an action token. DELAYQ_CONSOLE_PORT, _HOST, _QUEUES change the defaults."},
            footer = {"%nExamples:", "  delayq console", "  DELAYQ_REDIS_URL=redis://localhost:6379 DELAYQ_CONSOLE_TOKEN=s3cret delayq console"})
    static final class ConsoleSubcommand implements Callable<Integer> {
        @Option(names = "--port", paramLabel = "PORT", description = "Port to listen on (default $DELAYQ_CONSOLE_PORT, else 8090; 0 = any free port).")
        Integer port;

        @Override
        public Integer call() {
            java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
            if (port != null) {
                env.put(ConsoleVariables.PORT.name(), String.valueOf(port));
            }
            return ConsoleCommand.run(env, System.out, System.err);
        }
    }

    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = {"Run a worker for a sample queue with a visible handler and sample orders.",
                    "Uses REDIS_URL when set, otherwise starts a local redis-server. Ctrl-C stops it."})
    static final class DemoSubcommand implements Callable<Integer> {
        @Option(names = "--once", description = "Exit when the first round of sample orders is settled.")
        boolean once;

        @Override
        public Integer call() {
            return DemoCommand.run(once ? new String[]{"--once"} : new String[0], System.getenv());
        }
    }
}
