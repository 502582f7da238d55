package io.delayq.cli.check;

import io.delayq.cli.ConnectionOptions;
import io.delayq.cli.ConnectionSettings;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.queue.QueueName;
import io.delayq.redis.RedisEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Is this Redis safe for delayq? One line per check: pass, warn or fail, with a fix.",
                "  connection   Redis reachable with these credentials",
                "  version      Redis 6.2 or newer",
                "  queue        shard count and protocol version match Redis (with --queue, --shards)",
                "  keys         every shard key of the queue has its type (a producer's SET over a due set stops the shard)",
                "  eviction     maxmemory-policy is noeviction (an evicting Redis silently drops tasks)",
                "  persistence  AOF or RDB snapshots on (without, a restart loses every task)",
                "  scripts      every delayq Lua script loads (SCRIPT LOAD)"},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:no check failed (warnings allowed)", ExitCodes.L_USAGE,
                "4:at least one check failed (an unreachable Redis included)", ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq check --redis redis://redis.prod:6379 --queue orders --shards 16",
                "  delayq check --output json | jq -r '.checks[] | select(.status==\"FAIL\") | .hint'"})
public class CheckCommand implements Callable<Integer> {
    @Mixin(name = ConnectionOptions.MIXIN_NAME)
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    record Report(String redis, String queue, List<CheckResult> checks, long passed, long warnings, long failed) {
    }

    @Override
    public Integer call() {
        ConnectionSettings settings = ConnectionOptions.resolve(spec);
        String url = settings.requireRedisUrl();
        String queue = settings.queue() == null ? null : QueueName.require(settings.queue());
        Integer shards = settings.checkedShards();
        List<CheckResult> results = new ArrayList<>();
        RedisEndpoint redis = RedisChecks.connect(url, settings.timeout(), results);
        if (redis != null) {
            try {
                RedisChecks checks = new RedisChecks(redis, settings.timeout());
                results.add(checks.version());
                results.add(checks.queue(queue, shards));
                CheckResult keys = checks.keys(queue);
                if (keys != null) {
                    results.add(keys);
                }
                results.add(checks.eviction());
                results.add(checks.persistence());
                results.add(checks.scripts());
            } finally {
                redis.close();
            }
        }
        Report report = new Report(RedisEndpoint.redact(url), queue, results, count(results, CheckResult.Status.PASS),
                count(results, CheckResult.Status.WARN), count(results, CheckResult.Status.FAIL));
        PrintWriter out = spec.commandLine().getOut();
        if (output == OutputFormat.JSON) {
            Json.print(out, report);
        } else {
            print(out, report, redis == null);
        }
        out.flush();
        return report.failed() > 0 ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }

    private static void print(PrintWriter out, Report report, boolean unreachable) {
        for (CheckResult r : report.checks()) {
            out.printf("%-4s  %-11s  %s%n", r.status(), r.name(), r.message());
            if (r.hint() != null) {
                out.printf("%-4s  %-11s  fix: %s%n", "", "", r.hint());
            }
        }
        if (unreachable) {
            out.println("(the other checks need a connection and were skipped)");
        }
        out.println("check: " + report.passed() + " passed, " + report.warnings() + " warning(s), " + report.failed() + " failed");
    }

    private static long count(List<CheckResult> results, CheckResult.Status s) {
        return results.stream().filter(r -> r.status() == s).count();
    }
}
