package io.delayq.cli;

/**
 * The exit codes every command keeps, so that scripts can branch on them. They are listed in each
 * command's help and in docs/cli.md.
 */
public final class ExitCodes {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** The task or queue does not exist, or nothing was done (duplicate id, task in flight, no dead letter matched). */
    public static final int NOT_FOUND = 1;
    /** Bad command line or bad input: an unknown option, an invalid duration, instant or id, rejected backfill rows. */
    public static final int USAGE = 2;
    /** Redis unreachable or answering with an error, or the queue in Redis has another shard count or protocol version. */
    public static final int REDIS = 3;
    /** {@code check} found at least one failing check. */
    public static final int CHECK_FAILED = 4;
    /** An unexpected error: a bug in delayq. */
    public static final int INTERNAL = 5;

    /** Lines of the "Exit codes" block in the commands' help (picocli's "code:description" form). */
    public static final String HEADING = "%nExit codes:%n";
    public static final String L_OK = "0:done";
    public static final String L_USAGE = "2:invalid command line or input (the line on stderr names the option and the rule)";
    public static final String L_REDIS = "3:Redis unreachable or failing, or the queue in Redis has another shard count or protocol version";
    public static final String L_INTERNAL = "5:unexpected error (a bug in delayq)";

    private ExitCodes() {
    }
}
