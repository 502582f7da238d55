package io.delayq.localredis;

import java.util.Optional;

/**
 * Starting a redis-server with TLS options, by one rule wherever tests do it: a redis-server built without TLS
 * (the embedded 6.2 binary) refuses the options as a bad directive, and the test that needs TLS skips; a port that
 * another process took between choosing it and the server's bind is retried on a fresh one; any other start
 * failure is a failure, not a reason to skip.
 */
public final class TlsStart {
    /** Starts a server on a port the attempt chooses afresh each time; failures are exceptions whose message holds the server's words. */
    @FunctionalInterface
    public interface Attempt<T, E extends Exception> {
        T start() throws E;
    }

    static final int ATTEMPTS = 3;

    private TlsStart() {
    }

    /** The started server, or empty when this redis-server was built without TLS. */
    public static <T, E extends Exception> Optional<T> start(Attempt<T, E> attempt) throws E {
        for (int n = 1; ; n++) {
            try {
                return Optional.of(attempt.start());
            } catch (RuntimeException e) {
                String why = String.valueOf(e.getMessage());
                if (builtWithoutTls(why)) {
                    return Optional.empty();
                }
                if (n < ATTEMPTS && why.contains("Address already in use")) {
                    continue;
                }
                throw e;
            }
        }
    }

    /** What a redis-server built without TLS says when it is given the TLS options (a config error on tls-port). */
    public static boolean builtWithoutTls(String startLog) {
        return startLog.contains("Bad directive") && startLog.contains("tls-");
    }
}
