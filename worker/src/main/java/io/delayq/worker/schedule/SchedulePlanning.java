package io.delayq.worker.schedule;

import io.delayq.schedule.SchedulePlanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Plans the queue's recurring schedules ahead: every interval (± 25 %, so that a fleet does not plan
 * in lockstep) one {@link SchedulePlanner#turn()}. Every worker runs it; the planner is safe with any
 * number running at once, and one live worker is enough to keep every schedule firing.
 */
public final class SchedulePlanning implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulePlanning.class);

    /**
     * @param planner  the queue's planner (horizon, misfire threshold)
     * @param metrics  where each turn's results go
     * @param interval time between turns; the horizon must leave room for a few of them
     */
    public record Params(SchedulePlanner planner, ScheduleMetrics metrics, Duration interval) {
    }

    private final Params params;

    public SchedulePlanning(Params params) {
        this.params = params;
    }

    public long nextDelayMillis() {
        long base = params.interval().toMillis();
        return base * 3 / 4 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
    }

    @Override
    public void run() {
        try {
            SchedulePlanner.Turn turn = params.planner().turn();
            params.metrics().record(turn);
            if (turn.failed() > 0) {
                LOG.warn("schedule planning: {} of {} schedule(s) failed this turn", turn.failed(), turn.schedules());
            }
        } catch (RuntimeException e) {
            params.metrics().failedTurn();
            LOG.debug("schedule planning turn failed: {}", e.toString());
        }
    }
}
