package io.delayq.cli;

import picocli.CommandLine;

/** Entry point of the stand-alone CLI, and the factory the worker's executable builds on. */
public final class Cli {
    private Cli() {
    }

    public static void main(String[] args) {
        // Lettuce logs through SLF4J; on the command line only our own one-line errors should show
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        System.exit(commandLine().execute(args));
    }

    /** The configured {@code delayq} command line: error handlers, exit codes, case-insensitive enum values. */
    public static CommandLine commandLine() {
        return commandLine(CliEnvironment.system());
    }

    public static CommandLine commandLine(CliEnvironment environment) {
        CommandLine cmd = new CommandLine(new DelayqCommand(environment));
        ErrorHandlers handlers = new ErrorHandlers();
        cmd.setParameterExceptionHandler(handlers);
        cmd.setExecutionExceptionHandler(handlers);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        // wide enough that the examples in the help stay one command per line
        cmd.setUsageHelpWidth(100);
        return cmd;
    }
}
