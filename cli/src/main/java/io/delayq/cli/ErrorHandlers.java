package io.delayq.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Every error is one line on stderr, prefixed with the command ({@code delayq enqueue: delay: ...}),
 * and a documented exit code: a person sees what was wrong, a script can branch on the code.
 */
final class ErrorHandlers implements IParameterExceptionHandler, IExecutionExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        // picocli starts some messages with "Error: "; the command name already says it is one
        String message = Errors.oneLine(ex.getMessage()).replaceFirst("^Error: ", "");
        cmd.getErr().println(name + ": " + message + " (see '" + name + " --help')");
        cmd.getErr().flush();
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        Errors.Outcome o = Errors.classify(ex);
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + o.message());
        if (o.exitCode() == ExitCodes.INTERNAL) {
            ex.printStackTrace(cmd.getErr());
        }
        cmd.getErr().flush();
        return o.exitCode();
    }
}
