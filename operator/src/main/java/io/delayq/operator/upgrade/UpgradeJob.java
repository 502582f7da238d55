package io.delayq.operator.upgrade;

import io.delayq.operator.jobs.QueueJob;
import io.delayq.operator.redis.ProbeConnection;
import io.delayq.redis.Replies;
import io.delayq.upgrade.ProtocolUpgrade;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Upgrades one queue to protocol 3 with core's {@link ProtocolUpgrade} on a connection of its own, as a background job
 * of the operator ({@link QueueJob}), and runs it again until nothing of protocol 2 is left (the tasks protocol 2 holds
 * in flight finish or are reclaimed within their lease). Every step is one script and the meta's protocol is written
 * once, so another job resumes where a stopped or failed one ended.
 */
public final class UpgradeJob extends QueueJob {
    private static final Logger LOG = LoggerFactory.getLogger(UpgradeJob.class);

    /**
     * @param name       the DelayQueue (namespace/name), for logs and the thread name
     * @param connection opens the job's own connection to the queue's Redis; closed when the job ends
     * @param patience   how long one run waits for protocol 2's in-flight tasks before it reports and runs again
     * @param onChange   told after every run and when the job ends (the reconciler looks again)
     */
    public record Params(String name, Supplier<ProbeConnection> connection, Duration timeout, Duration patience,
                         Runnable onChange, Clock clock) {
    }

    /** How the job stands: its last run's result (null before the first), and whether and how it ended. */
    public record State(boolean running, ProtocolUpgrade.Result last, String error, Instant endedAt) implements QueueJob.Outcome {
        public boolean failed() {
            return !running && error != null;
        }

        public boolean finished() {
            return !running && error == null && last != null && last.done();
        }
    }

    private final Params p;
    private volatile State state = new State(true, null, null, null);

    public UpgradeJob(Params params) {
        this.p = params;
    }

    @Override
    public State state() {
        return state;
    }

    @Override
    protected String threadName() {
        return "delayq-upgrade-" + p.name();
    }

    /** The job's totals so far: every run adds what it adopted; the tasks still in flight are the last run's. */
    private static ProtocolUpgrade.Result sum(ProtocolUpgrade.Result before, ProtocolUpgrade.Result run) {
        return before == null ? run : new ProtocolUpgrade.Result(before.waitingAdopted() + run.waitingAdopted(),
                before.deadAdopted() + run.deadAdopted(), run.stillInFlight(), before.steps() + run.steps());
    }

    @Override
    public void run() {
        LOG.info("upgrading {} to protocol 3", p.name());
        try (ProbeConnection connection = p.connection().get()) {
            Replies.await(connection.protocol().refreshLayout(), p.timeout());
            ProtocolUpgrade upgrade = new ProtocolUpgrade(connection.protocol(), p.timeout(), p.patience());
            while (!stopping()) {
                state = new State(true, sum(state.last(), upgrade.run()), null, null);
                if (state.last().done() || stopping()) {
                    break;
                }
                LOG.info("upgrading {}: {} task(s) of protocol 2 still in flight; looking again", p.name(), state.last().stillInFlight());
                p.onChange().run();
            }
            state = new State(false, state.last(), stopping() ? "stopped" : null, p.clock().instant());
            if (!stopping()) {
                LOG.info("upgraded {} to protocol 3: {} waiting task(s) and {} dead letter(s) adopted", p.name(),
                        state.last().waitingAdopted(), state.last().deadAdopted());
            }
        } catch (RuntimeException e) {
            String why = stopping() ? "stopped" : String.valueOf(e.getMessage());
            state = new State(false, state.last(), why, p.clock().instant());
            if (!stopping()) {
                LOG.warn("upgrading {} to protocol 3 failed, will resume: {}", p.name(), why);
            }
        }
        if (!stopping()) {
            p.onChange().run();
        }
    }
}
