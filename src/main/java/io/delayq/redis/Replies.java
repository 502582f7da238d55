package io.delayq.redis;

import io.delayq.DelayQueueException;
import io.lettuce.core.RedisException;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for an asynchronous Redis answer, for every blocking caller (the client, the schedule store, the CLI, the console,
 * the worker), and reading the numbers in a reply.
 */
public final class Replies {
    private Replies() {
    }

    /** A {@code TIME} reply (seconds, microseconds) as epoch milliseconds, the scripts' "now". */
    public static long millisOf(java.util.List<String> time) {
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    /**
     * The answer, waited for at most {@code timeout}; its failure is rethrown as it was raised (a
     * checked cause wrapped in a {@link DelayQueueException}), a time-out is a {@link RedisException}.
     */
    public static <T> T await(CompletionStage<T> stage, Duration timeout) {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new DelayQueueException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new RedisException("no answer from Redis within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DelayQueueException("interrupted while waiting for Redis", e);
        }
    }

    /** A number from a script reply (an integer, or its text); 0 for a nil. */
    public static long asLong(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(v.toString());
    }
}
