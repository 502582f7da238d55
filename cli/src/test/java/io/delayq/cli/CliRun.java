package io.delayq.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.util.Map;

/** Runs the real command line in-process with captured stdout and stderr, the way a shell would. */
public record CliRun(int exitCode, String out, String err) {
    /** Tests print local times in a zone that differs from UTC, so "local and UTC" is visible. */
    public static final ZoneId ZONE = ZoneId.of("Europe/Berlin");

    public static CliRun run(String... args) {
        return run(Map.of(), args);
    }

    public static CliRun run(Map<String, String> env, String... args) {
        CommandLine cmd = Cli.commandLine(new CliEnvironment(env, ZONE, false));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** stderr has exactly one line (the one-line error rule). */
    public boolean oneErrorLine() {
        return err.strip().lines().count() == 1;
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
