package io.delayq.cli;

import io.delayq.DelayQueueException;
import io.delayq.InvalidInputException;
import io.delayq.queue.ProtocolVersionMismatchException;
import io.delayq.queue.ShardCountMismatchException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns what a command threw into an exit code and one line that names what was wrong. */
final class Errors {
    private Errors() {
    }

    record Outcome(int exitCode, String message) {
    }

    static Outcome classify(Throwable thrown) {
        Throwable e = unwrap(thrown);
        if (e instanceof CliException c) {
            return new Outcome(c.exitCode(), c.getMessage());
        }
        if (e instanceof InvalidInputException) {
            return new Outcome(ExitCodes.USAGE, e.getMessage());
        }
        if (e instanceof ShardCountMismatchException || e instanceof ProtocolVersionMismatchException) {
            return new Outcome(ExitCodes.REDIS, e.getMessage());
        }
        if (e instanceof RedisConnectionException) {
            return new Outcome(ExitCodes.REDIS, "redis: connection failed (" + rootMessage(e) + ")");
        }
        if (e instanceof RedisCommandTimeoutException) {
            return new Outcome(ExitCodes.REDIS, "redis: no answer in time (" + oneLine(e.getMessage()) + "); raise --timeout or check the server");
        }
        if (e instanceof RedisException) {
            return new Outcome(ExitCodes.REDIS, "redis: " + oneLine(rootMessage(e)));
        }
        if (e instanceof DelayQueueException) {
            return new Outcome(ExitCodes.REDIS, oneLine(e.getMessage()));
        }
        return new Outcome(ExitCodes.INTERNAL, "unexpected error (a bug in delayq, please report it): " + e.getClass().getName()
                + (e.getMessage() == null ? "" : ": " + oneLine(e.getMessage())));
    }

    static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return oneLine(m == null ? t.getClass().getSimpleName() : m);
    }

    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }
}
