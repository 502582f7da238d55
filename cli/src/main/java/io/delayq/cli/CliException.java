package io.delayq.cli;

/**
 * An outcome the command reports as one line on stderr with a chosen exit code. The message
 * starts with the thing that was wrong ("queue: ...", "payload-file: ...").
 */
public class CliException extends RuntimeException {
    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    public static CliException notFound(String message) {
        return new CliException(ExitCodes.NOT_FOUND, message);
    }
}
