package io.delayq.operator.resharding;

import io.delayq.operator.jobs.QueueJob;
import io.delayq.operator.redis.ProbeConnection;
import io.delayq.reshard.Mover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Drives one queue's growth with core's {@link Mover} (reshard_begin, the layout stamps, the move passes,
 * reshard_finish) on a connection of its own, as a background job of the operator ({@link QueueJob}: one that was
 * stopped or failed, Redis unreachable say, is resumed by starting another).
 */
public final class MigrationJob extends QueueJob {
    private static final Logger LOG = LoggerFactory.getLogger(MigrationJob.class);

    /**
     * @param name       the DelayQueue (namespace/name), for logs and the thread name
     * @param to         the shard count to grow to
     * @param batch      entries per move script call (the mover's bound of each Redis call)
     * @param connection opens the job's own connection to the queue's Redis; closed when the job ends
     * @param onChange   told when the job starts moving, ends or fails (the reconciler looks again)
     */
    public record Params(String name, int to, int batch, Supplier<ProbeConnection> connection, Runnable onChange, Clock clock) {
    }

    /** How the job stands: running, or ended with a result or an error. */
    public record State(boolean running, Mover.Result result, String error, Instant endedAt, Mover.Progress last)
            implements QueueJob.Outcome {
        public boolean failed() {
            return !running && error != null;
        }
    }

    private final Params p;
    private volatile State state = new State(true, null, null, null, null);
    private String lastPhase = "";

    public MigrationJob(Params params) {
        this.p = params;
    }

    public int to() {
        return p.to();
    }

    @Override
    public State state() {
        return state;
    }

    @Override
    protected String threadName() {
        return "delayq-reshard-" + p.name();
    }

    @Override
    public void run() {
        LOG.info("resharding {} to {} shards", p.name(), p.to());
        try (ProbeConnection connection = p.connection().get()) {
            Mover.Result result = new Mover(Mover.Params.of(connection.protocol(), p.to(), this::progress).withBatch(p.batch())).run();
            state = new State(false, result, null, p.clock().instant(), state.last());
            LOG.info("resharding {} finished: {} shards (was {}), {} tasks moved in {} passes", p.name(), result.to(), result.from(),
                    result.moved(), result.passes());
        } catch (Stopped e) {
            state = new State(false, null, "stopped", p.clock().instant(), state.last());
            LOG.info("resharding {} stopped; the next mover resumes it from Redis", p.name());
        } catch (RuntimeException e) {
            String why = stopping() ? "stopped" : String.valueOf(e.getMessage());
            state = new State(false, null, why, p.clock().instant(), state.last());
            if (!stopping()) {
                LOG.warn("resharding {} to {} shards failed, will resume: {}", p.name(), p.to(), why);
            }
        }
        if (!stopping()) {
            p.onChange().run();
        }
    }

    /** The mover's progress callback: also where a stop takes effect, between two batches. */
    private void progress(Mover.Progress progress) {
        if (stopping()) {
            throw new Stopped();
        }
        state = new State(true, null, null, null, progress);
        if (!progress.phase().equals(lastPhase)) {
            lastPhase = progress.phase();
            p.onChange().run();
        }
    }

    private static final class Stopped extends RuntimeException {
        Stopped() {
            super("stopped", null, false, false);
        }
    }
}
