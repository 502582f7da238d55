package io.delayq.redis;

import io.delayq.DelayQueueException;
import io.delayq.settings.WorkerSettings;
import io.lettuce.core.RedisCommandExecutionException;

import java.util.Optional;

/**
 * Redis refused a connection for its credentials, told as what to set. Lettuce reports a server that wants a
 * password and got none as a connection failure caused by {@code NOAUTH HELLO must be called with the client
 * already authenticated…}, and a wrong password as {@code WRONGPASS invalid username-password pair…}: true,
 * but neither names the setting to fix. {@link RedisEndpoint#connect} raises this instead, with the {@link Fix}
 * its caller names (by default {@link Fix#DELAYQ_ENVIRONMENT}, the variables the worker and the console read);
 * Redis's own answer stays the cause.
 */
public final class RedisCredentialsException extends DelayQueueException {
    /** What Redis refused. */
    public enum Problem {
        /** Redis requires a password and none was sent (NOAUTH). */
        PASSWORD_MISSING,
        /** Redis refused the user name and password sent (WRONGPASS): a wrong password, or a user that does not exist or is disabled. */
        CREDENTIALS_REFUSED
    }

    /**
     * What a person does about each problem, in the terms of the program that connects.
     *
     * @param whenMissing what to set when Redis requires a password and none was given
     * @param whenRefused what to check when Redis refused the credentials given
     */
    public record Fix(String whenMissing, String whenRefused) {
        /** The DELAYQ_* variables of the worker and the console (and of the CLI, which also takes the URL as an option). */
        public static final Fix DELAYQ_ENVIRONMENT = forUrlIn(WorkerSettings.REDIS_URL.name());

        /** The DELAYQ_* credential variables, with the Redis URL given by {@code urlSetting} (a variable, an option). */
        public static Fix forUrlIn(String urlSetting) {
            String password = WorkerSettings.REDIS_PASSWORD.name();
            String user = WorkerSettings.REDIS_USERNAME.name();
            return new Fix("set " + password + " (and " + user + " for an ACL user), or put the password in the URL (" + urlSetting
                    + "): redis://:PASSWORD@host:6379",
                    "check " + password + " and " + user + ", or the user:password in the URL (" + urlSetting + ")");
        }
    }

    private final Problem problem;
    private final String fix;

    private RedisCredentialsException(Problem problem, String fix, Throwable cause) {
        super(refusal(problem) + ": " + fix, cause);
        this.problem = problem;
        this.fix = fix;
    }

    public Problem problem() {
        return problem;
    }

    /** What Redis refused, without the fix: {@code Redis requires a password and none was given (it answered NOAUTH)}. */
    public String refusal() {
        return refusal(problem);
    }

    /** What to set or check. */
    public String fix() {
        return fix;
    }

    /** The credentials problem behind {@code error} (anywhere in its causes), if that is what it is. */
    public static Optional<Problem> problemOf(Throwable error) {
        return find(error, 0);
    }

    /** Causes and suppressed ones: a Cluster client reports each seed node's refusal as a suppressed exception. */
    private static Optional<Problem> find(Throwable t, int depth) {
        if (t == null || depth > 8) {
            return Optional.empty();
        }
        String m = t.getMessage();
        if (t instanceof RedisCommandExecutionException && m != null) {
            // "NOAUTH HELLO must be called…" at the handshake, "NOAUTH Authentication required." on a command
            if (m.startsWith("NOAUTH")) {
                return Optional.of(Problem.PASSWORD_MISSING);
            }
            if (m.startsWith("WRONGPASS")) {
                return Optional.of(Problem.CREDENTIALS_REFUSED);
            }
        }
        for (Throwable s : t.getSuppressed()) {
            Optional<Problem> p = find(s, depth + 1);
            if (p.isPresent()) {
                return p;
            }
        }
        return t.getCause() == t ? Optional.empty() : find(t.getCause(), depth + 1);
    }

    /** {@code error} explained with {@code fix} when it is a credentials problem (also when already explained otherwise), else {@code error}. */
    public static RuntimeException explain(RuntimeException error, Fix fix) {
        Throwable redisSaid = error instanceof RedisCredentialsException already ? already.getCause() : error;
        return problemOf(error).<RuntimeException>map(p -> new RedisCredentialsException(p,
                p == Problem.PASSWORD_MISSING ? fix.whenMissing() : fix.whenRefused(), redisSaid)).orElse(error);
    }

    private static String refusal(Problem problem) {
        return switch (problem) {
            case PASSWORD_MISSING -> "Redis requires a password and none was given (it answered NOAUTH)";
            case CREDENTIALS_REFUSED -> "Redis refused the password given (it answered WRONGPASS: a wrong password, or a user that does not "
                    + "exist or is disabled)";
        };
    }
}
