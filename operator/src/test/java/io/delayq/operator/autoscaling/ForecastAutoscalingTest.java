package io.delayq.operator.autoscaling;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.DueWindow;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forecast autoscaling, as scenario tables: each row is one backlog check of one worker Deployment, with the tasks
 * waiting in Redis at that moment, and the replicas (and the reason) the decision must give. The Deployment's
 * replicas and status bookkeeping carry from row to row as the reconciler carries them.
 */
class ForecastAutoscalingTest {
    private static final Instant MIDNIGHT = Instant.parse("2030-01-01T00:00:00Z");

    private static AutoscalingSpec policy(int min, int max, double perReplicaPerSecond) {
        AutoscalingSpec p = new AutoscalingSpec();
        p.setMode(AutoscalingMode.Forecast);
        p.setMinReplicas(min);
        p.setMaxReplicas(max);
        p.setTargetDuePerReplica(5000);
        p.setScaleDownStabilization("5m");
        p.setWarmup("60s");
        p.setHorizon("15m");
        p.setTargetTasksPerReplicaPerSecond(perReplicaPerSecond);
        return p;
    }

    /** Tasks waiting in Redis: due time to count. */
    private static Map<Instant, Long> tasks(Object... dueAtAndCount) {
        Map<Instant, Long> m = new TreeMap<>();
        for (int i = 0; i < dueAtAndCount.length; i += 2) {
            m.put((Instant) dueAtAndCount[i], ((Number) dueAtAndCount[i + 1]).longValue());
        }
        return m;
    }

    /** What forecast.lua answers for these tasks at {@code now}: counts in (now, now + window], and the next due time. */
    static DueForecast forecast(AutoscalingSpec p, Instant now, Map<Instant, Long> waiting) {
        List<DueWindow> windows = new ArrayList<>();
        for (Duration w : ForecastPolicy.windowsFor(p)) {
            long n = waiting.entrySet().stream().filter(e -> e.getKey().isAfter(now) && !e.getKey().isAfter(now.plus(w)))
                    .mapToLong(Map.Entry::getValue).sum();
            windows.add(new DueWindow(w, n));
        }
        long next = waiting.keySet().stream().filter(t -> t.isAfter(now)).findFirst().map(Instant::toEpochMilli).orElse(-1L);
        return new DueForecast(now.toEpochMilli(), next, windows);
    }

    /** What is due already: the backlog. */
    private static long due(Instant now, Map<Instant, Long> waiting) {
        return waiting.entrySet().stream().filter(e -> !e.getKey().isAfter(now)).mapToLong(Map.Entry::getValue).sum();
    }

    /** One Deployment across checks, carrying what status carries. */
    private static final class Fleet {
        final AutoscalingSpec policy;
        Integer replicas;
        Instant pending;
        Instant lastScale;
        ScalingDecision last;

        Fleet(AutoscalingSpec policy, Integer replicas) {
            this.policy = policy;
            this.replicas = replicas;
        }

        ScalingDecision check(Instant now, Map<Instant, Long> waiting) {
            return apply(new ScalingInput(OptionalLong.of(due(now, waiting)), replicas, pending, lastScale, now,
                    Optional.of(forecast(policy, now, waiting))));
        }

        ScalingDecision unreachable(Instant now) {
            return apply(new ScalingInput(OptionalLong.empty(), replicas, pending, lastScale, now, Optional.empty()));
        }

        private ScalingDecision apply(ScalingInput in) {
            last = Autoscaler.decide(policy, 1, false, in);
            replicas = last.replicas();
            pending = last.scaleDownPendingSince();
            lastScale = last.lastScaleTime();
            return last;
        }
    }

    private static Instant at(String offsetFromMidnight) {
        boolean before = offsetFromMidnight.startsWith("-");
        Duration d = Duration.parse("PT" + offsetFromMidnight.replace("-", "").toUpperCase());
        return before ? MIDNIGHT.minus(d) : MIDNIGHT.plus(d);
    }

    @Test
    void steadyLoadKeepsASteadyCount() {
        // 2 tasks a second, every second, for the next hour: every window's rate is 2/s, one replica fires 1/s
        Fleet fleet = new Fleet(policy(1, 10, 1.0), 1);
        String[][] table = {
                // time     replicas
                {"-30m",    "2"},
                {"-29m",    "2"},
                {"-20m",    "2"},
                {"-10m",    "2"},
        };
        for (String[] row : table) {
            Instant now = at(row[0]);
            Map<Instant, Long> waiting = new TreeMap<>();
            for (int s = 1; s <= 3600; s++) {
                waiting.put(now.plusSeconds(s), 2L);
            }
            ScalingDecision d = fleet.check(now, waiting);
            assertThat(d.replicas()).as(row[0]).isEqualTo(Integer.parseInt(row[1]));
            assertThat(d.scaleDownPendingSince()).as(row[0] + ": nothing pending").isNull();
        }
        assertThat(fleet.last.reason()).isEqualTo("120 tasks due within 1m (2/s) at 1/s per replica need 2");
        assertThat(fleet.lastScale).as("scaled once, at the first check").isEqualTo(at("-30m"));
    }

    @Test
    void aMidnightSpikeIsMetBeforeItIsDue() {
        // 60,000 tasks due at midnight; a replica fires 50/s; the backlog rule wants 5,000 due per replica
        Fleet fleet = new Fleet(policy(1, 50, 50), 1);
        Map<Instant, Long> spike = tasks(MIDNIGHT, 60_000);
        Object[][] table = {
                // time        replicas  reason
                {"-20m",       1,        "no due backlog and nothing due within horizon 15m (next at 2030-01-01T00:00:00Z); held at minReplicas 1"},
                {"-10m",       2,        "60000 tasks due within 15m (66.67/s) at 50/s per replica need 2"},
                {"-3m",        4,        "60000 tasks due within 5m (200/s) at 50/s per replica need 4"},
                // warmup (60s) before it: the whole spike in the shortest window, pods asked for a start-up ahead
                {"-60s",       20,       "60000 tasks due within 1m (1000/s) at 50/s per replica need 20"},
                // the rate is the window's, not the time left's: still 20
                {"-30s",       20,       "60000 tasks due within 1m (1000/s) at 50/s per replica need 20"},
        };
        for (Object[] row : table) {
            ScalingDecision d = fleet.check(at((String) row[0]), spike);
            assertThat(d.replicas()).as((String) row[0]).isEqualTo(row[1]);
            assertThat(d.reason()).as((String) row[0]).isEqualTo(row[2]);
        }
        // due now: the backlog rule wants 12, fewer than the 20 running: they stay for the stabilisation window
        ScalingDecision due = fleet.check(at("5s"), spike);
        assertThat(due.replicas()).isEqualTo(20);
        assertThat(due.reason()).isEqualTo("due backlog 60000 at 5000 per replica needs 12; down to 12 once wanted for 5m");
        assertThat(due.scaleDownPendingSince()).isEqualTo(at("5s"));
        assertThat(fleet.check(at("5m5s"), tasks(MIDNIGHT, 50_000)).replicas()).as("after the window: the backlog's own count").isEqualTo(10);
    }

    @Test
    void aSpikeCancelledBeforeItIsDueScalesDownOnlyAfterTheStabilisationWindow() {
        Fleet fleet = new Fleet(policy(1, 50, 50), 1);
        Object[][] table = {
                // time    waiting                          replicas  pending since
                {"-3m",    tasks(MIDNIGHT, 60_000),         4,        null},
                {"-2m",    tasks(),                         4,        "-2m"},   // cancelled: wanted 1, held
                {"-1m",    tasks(),                         4,        "-2m"},
                {"1m",     tasks(),                         4,        "-2m"},
                {"3m",     tasks(),                         1,        null},    // 5m after the cancel
                {"4m",     tasks(),                         1,        null},
        };
        for (Object[] row : table) {
            @SuppressWarnings("unchecked")
            ScalingDecision d = fleet.check(at((String) row[0]), (Map<Instant, Long>) row[1]);
            assertThat(d.replicas()).as((String) row[0]).isEqualTo(row[2]);
            assertThat(d.scaleDownPendingSince()).as((String) row[0]).isEqualTo(row[3] == null ? null : at((String) row[3]));
        }
    }

    @Test
    void aLongQuietScalesToZeroAndWakesAWarmupBeforeTheNextTask() {
        Fleet fleet = new Fleet(policy(0, 10, 50), 1);
        Map<Instant, Long> one = tasks(at("2h"), 1);
        Object[][] table = {
                // time          replicas
                {"0s",           1},      // quiet: zero wanted, pending
                {"4m",           1},
                {"5m",           0},      // after the stabilisation window
                {"1h45m",        0},      // the task enters the horizon: one replica's load is not started ahead
                {"1h58m59s",     0},      // 61s before it: not yet
                {"1h59m",        1},      // warmup (60s) before it: the first pod starts
                {"1h59m30s",     1},
        };
        for (Object[] row : table) {
            assertThat(fleet.check(at((String) row[0]), one).replicas()).as((String) row[0]).isEqualTo(row[1]);
        }
        assertThat(fleet.last.reason()).isEqualTo("next task due in 30s, within warmup 1m: 1 replica up before it");
        assertThat(fleet.lastScale).isEqualTo(at("1h59m"));

        assertThat(new Fleet(policy(0, 10, 50), 0).check(at("1h50m"), one).reason()).as("why it stays at zero")
                .isEqualTo("no due backlog; 1 task due within 15m, one replica's load at most: it starts warmup 1m before the next (due at 2030-01-01T02:00:00Z)");
    }

    @Test
    void aLoadOfSeveralReplicasBeyondTheWarmupStartsAhead() {
        // 1,200 tasks in 5 minutes' time: 4/s over the 5m window, two replicas' worth at 2/s each
        Fleet fleet = new Fleet(policy(0, 10, 2), 0);
        ScalingDecision d = fleet.check(MIDNIGHT, tasks(at("4m"), 1_200));

        assertThat(d.replicas()).isEqualTo(2);
        assertThat(d.reason()).isEqualTo("1200 tasks due within 5m (4/s) at 2/s per replica need 2");
        assertThat(d.lastScaleTime()).isEqualTo(MIDNIGHT);
    }

    @Test
    void nothingWithinTheHorizonAndNoBacklogIsZeroWhatLiesBeyondItCountsForNothing() {
        Fleet fleet = new Fleet(policy(0, 10, 1), null);
        ScalingDecision d = fleet.check(MIDNIGHT, tasks(at("30m"), 1_000_000));

        assertThat(d.replicas()).isZero();
        assertThat(d.reason()).isEqualTo("no due backlog and nothing due within horizon 15m (next at 2030-01-01T00:30:00Z)");
        assertThat(new Fleet(policy(0, 10, 1), null).check(MIDNIGHT, tasks()).reason())
                .isEqualTo("no due backlog and nothing waits for a future time");
    }

    @Test
    void theMaximumCapsTheForecastAndSaysSo() {
        ScalingDecision d = new Fleet(policy(1, 3, 1), 1).check(MIDNIGHT, tasks(at("30s"), 6_000));

        assertThat(d.replicas()).isEqualTo(3);
        assertThat(d.reason()).isEqualTo("6000 tasks due within 1m (100/s) at 1/s per replica need 100; capped at maxReplicas 3");
    }

    @Test
    void aBacklogBiggerThanTheForecastDrivesIt() {
        ScalingDecision d = new Fleet(policy(1, 10, 50), 2).check(MIDNIGHT, tasks(at("-10s"), 30_000, at("2m"), 6_000));

        assertThat(d.replicas()).isEqualTo(6);
        assertThat(d.reason()).isEqualTo("due backlog 30000 at 5000 per replica needs 6");
    }

    @Test
    void redisUnreachableKeepsTheCountAndThePendingScaleDown() {
        Fleet fleet = new Fleet(policy(1, 50, 50), 1);
        fleet.check(at("-3m"), tasks(MIDNIGHT, 60_000));
        fleet.check(at("-2m"), tasks());
        assertThat(fleet.replicas).isEqualTo(4);

        ScalingDecision lost = fleet.unreachable(at("-1m"));

        assertThat(lost.replicas()).isEqualTo(4);
        assertThat(lost.scaleDownPendingSince()).isEqualTo(at("-2m"));
        assertThat(lost.reason()).isEqualTo("no reading of Redis: keeping 4 replicas");
        assertThat(new Fleet(policy(2, 50, 50), null).unreachable(MIDNIGHT).replicas()).as("a new Deployment starts at min").isEqualTo(2);
    }

    @Test
    void theProbeReadsTheDefaultWindowsAndUnderForecastTheWarmupAndTheHorizon() {
        AutoscalingSpec p = policy(1, 10, 1);
        p.setWarmup("90s");
        p.setHorizon("PT30M");
        assertThat(ForecastPolicy.windowsFor(p)).containsExactly(Duration.ofMinutes(1), Duration.ofSeconds(90), Duration.ofMinutes(5),
                Duration.ofMinutes(15), Duration.ofMinutes(30), Duration.ofMinutes(60));
        p.setMode(AutoscalingMode.Internal);
        assertThat(ForecastPolicy.windowsFor(p)).isEqualTo(DueForecast.DEFAULT_WINDOWS);
        assertThat(ForecastPolicy.windowsFor(null)).isEqualTo(DueForecast.DEFAULT_WINDOWS);
    }

    @Test
    void ratesReadAsAPersonWritesThem() {
        assertThat(ForecastNeed.number(4.0)).isEqualTo("4");
        assertThat(ForecastNeed.number(0.5)).isEqualTo("0.5");
        assertThat(ForecastNeed.number(200.0 / 3)).isEqualTo("66.67");
    }
}
