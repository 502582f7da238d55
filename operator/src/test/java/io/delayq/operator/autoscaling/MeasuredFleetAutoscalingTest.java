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
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Forecast autoscaling with what the fleet measured in place of the spec'd figures: a pod start-up longer than
 * {@code warmup} asks for pods earlier, a measured throughput sizes the fleet in place of
 * {@code targetTasksPerReplicaPerSecond}, and what is not measured leaves the spec'd figure in force.
 */
class MeasuredFleetAutoscalingTest {
    private static final Instant MIDNIGHT = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration CHECK = Duration.ofSeconds(10);

    private static AutoscalingSpec policy() {
        AutoscalingSpec p = new AutoscalingSpec();
        p.setMode(AutoscalingMode.Forecast);
        p.setMinReplicas(0);
        p.setMaxReplicas(50);
        p.setTargetDuePerReplica(5000);
        p.setScaleDownStabilization("5m");
        p.setWarmup("30s");
        p.setHorizon("15m");
        p.setTargetTasksPerReplicaPerSecond(50);
        return p;
    }

    private static MeasuredFleet measured(Duration startup, Double rate) {
        return new MeasuredFleet(Optional.ofNullable(startup), rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate), CHECK);
    }

    /** What forecast.lua answers at {@code now} for {@code tasks} due at {@code dueAt}, read with the lead window too. */
    private static DueForecast forecast(AutoscalingSpec p, MeasuredFleet fleet, Instant now, Instant dueAt, long tasks) {
        List<DueWindow> windows = new ArrayList<>();
        for (Duration w : ForecastPolicy.windowsFor(p, fleet)) {
            windows.add(new DueWindow(w, dueAt.isAfter(now) && !dueAt.isAfter(now.plus(w)) ? tasks : 0));
        }
        return new DueForecast(now.toEpochMilli(), dueAt.isAfter(now) ? dueAt.toEpochMilli() : -1, windows);
    }

    private static ScalingDecision decide(AutoscalingSpec p, MeasuredFleet fleet, Instant now, Instant dueAt, long tasks) {
        return Autoscaler.decide(p, 1, false, new ScalingInput(OptionalLong.of(0), 0, null, null, now,
                Optional.of(forecast(p, fleet, now, dueAt, tasks)), fleet));
    }

    @Test
    void aPodStartUpLongerThanTheWarmupWakesTheDeploymentThatMuchEarlier() {
        AutoscalingSpec p = policy();
        // one task at midnight; pods took 75 s to become Ready, the operator looks every 10 s: lead time 85 s
        MeasuredFleet slowPods = measured(Duration.ofSeconds(75), null);
        Object[][] table = {
                // before midnight  spec'd only  measured start-up
                {"PT90S",           0,           0},
                {"PT85S",           0,           1},
                {"PT60S",           0,           1},
                {"PT30S",           1,           1},
        };
        for (Object[] row : table) {
            Instant now = MIDNIGHT.minus(Duration.parse((String) row[0]));
            assertThat(decide(p, MeasuredFleet.none(), now, MIDNIGHT, 1).replicas()).as(row[0] + " spec'd").isEqualTo(row[1]);
            assertThat(decide(p, slowPods, now, MIDNIGHT, 1).replicas()).as(row[0] + " measured").isEqualTo(row[2]);
        }
        assertThat(decide(p, slowPods, MIDNIGHT.minusSeconds(60), MIDNIGHT, 1).reason())
                .isEqualTo("next task due in 1m 00s, within lead time 85s (pods started in 75s + check 10s): 1 replica up before it");
    }

    @Test
    void aPodStartUpShorterThanTheWarmupLeavesTheWarmupInForce() {
        AutoscalingSpec p = policy();
        MeasuredFleet fastPods = measured(Duration.ofSeconds(4), null);
        assertThat(ForecastPolicy.of(p).with(fastPods).leadTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(decide(p, fastPods, MIDNIGHT.minusSeconds(30), MIDNIGHT, 1).reason())
                .isEqualTo("next task due in 30s, within warmup 30s: 1 replica up before it");
    }

    @Test
    void theLeadTimeNeverGoesPastTheHorizon() {
        AutoscalingSpec p = policy();
        p.setHorizon("2m");
        assertThat(ForecastPolicy.of(p).with(measured(Duration.ofMinutes(5), null)).leadTime()).isEqualTo(Duration.ofMinutes(2));
        assertThat(ForecastPolicy.windowsFor(p, measured(Duration.ofMinutes(5), null))).as("the horizon is read anyway, once")
                .containsOnlyOnce(Duration.ofMinutes(2)).contains(Duration.ofSeconds(110));
    }

    @Test
    void aMeasuredThroughputSizesTheWaveInPlaceOfTheSpecdOne() {
        AutoscalingSpec p = policy();
        Instant now = MIDNIGHT.minusSeconds(15);
        // 30,000 tasks due within the 30 s lead window: 1,000/s (the arrival slice, 20 s to 30 s from now, is empty)
        assertThat(decide(p, MeasuredFleet.none(), now, MIDNIGHT, 30_000).replicas()).as("spec'd 50/s").isEqualTo(20);
        ScalingDecision slower = decide(p, measured(null, 40.0), now, MIDNIGHT, 30_000);
        assertThat(slower.replicas()).as("measured 40/s").isEqualTo(25);
        assertThat(slower.reason()).isEqualTo("30000 tasks due within 30s (1000/s) at 40/s per replica (measured) need 25");
        assertThat(decide(p, measured(null, 250.0), now, MIDNIGHT, 30_000).replicas()).as("measured 250/s").isEqualTo(4);
    }

    @Test
    void aZeroMeasuredThroughputIsNotUsed() {
        AutoscalingSpec p = policy();
        ForecastPolicy policy = ForecastPolicy.of(p).with(measured(null, 0.0));
        assertThat(policy.tasksPerReplicaPerSecond()).isEqualTo(50);
        assertThat(policy.throughputMeasured()).isFalse();
    }

    @Test
    void aFreshMeasurementReplacesTheStartUpAndIsAveragedIntoTheThroughput() {
        MeasuredFleet remembered = measured(Duration.ofSeconds(40), 100.0);
        MeasuredFleet next = remembered.withStartup(Optional.of(Duration.ofSeconds(20))).withThroughput(OptionalDouble.of(60));
        assertThat(next.podStartup()).contains(Duration.ofSeconds(20));
        assertThat(next.tasksPerReplicaPerSecond()).hasValue(80.0);
        MeasuredFleet atZero = remembered.withStartup(Optional.empty()).withThroughput(OptionalDouble.empty());
        assertThat(atZero).as("a Deployment at zero keeps what was measured").isEqualTo(remembered);
    }

    @Test
    void theSpecIsStillCheckedWhateverWasMeasured() {
        AutoscalingSpec p = policy();
        p.setHorizon("10s");
        assertThatThrownBy(() -> ForecastPolicy.of(p).with(measured(Duration.ofSeconds(5), 10.0)))
                .hasMessageContaining("spec.autoscaling.horizon must not be shorter than spec.autoscaling.warmup");
    }

    @Test
    void aWaveDueAtOneInstantIsSizedByTheArrivalSliceItCrossesAsThePodsBecomeReady() {
        AutoscalingSpec p = policy();
        p.setMaxReplicas(100);
        MeasuredFleet checkedEvery10s = measured(null, null);
        // 30,000 tasks due at midnight, 50/s per replica, lead time 30 s, a check every 10 s
        Object[][] table = {
                // before midnight  without the slice  with it
                {"PT35S",           10,                10},
                {"PT25S",           20,                60},
                {"PT15S",           20,                20},
        };
        for (Object[] row : table) {
            Instant now = MIDNIGHT.minus(Duration.parse((String) row[0]));
            assertThat(decide(p, MeasuredFleet.none(), now, MIDNIGHT, 30_000).replicas()).as(row[0] + " without").isEqualTo(row[1]);
            assertThat(decide(p, checkedEvery10s, now, MIDNIGHT, 30_000).replicas()).as(row[0] + " with").isEqualTo(row[2]);
        }
        assertThat(decide(p, checkedEvery10s, MIDNIGHT.minusSeconds(25), MIDNIGHT, 30_000).reason())
                .isEqualTo("30000 tasks due between 20s and 30s from now (3000/s) at 50/s per replica need 60");
        assertThat(ForecastPolicy.windowsFor(p, checkedEvery10s)).contains(Duration.ofSeconds(20), Duration.ofSeconds(30));
    }

    @Test
    void aSteadyLoadIsNotInflatedByTheSlice() {
        AutoscalingSpec p = policy();
        MeasuredFleet checkedEvery10s = measured(null, null);
        Instant now = MIDNIGHT;
        // 200 tasks a second for the next hour, 50/s per replica: 4 replicas whatever the slice
        List<DueWindow> windows = new ArrayList<>();
        for (Duration w : ForecastPolicy.windowsFor(p, checkedEvery10s)) {
            windows.add(new DueWindow(w, 200 * w.toSeconds()));
        }
        DueForecast steady = new DueForecast(now.toEpochMilli(), now.plusSeconds(1).toEpochMilli(), windows);
        ScalingDecision d = Autoscaler.decide(p, 1, false, new ScalingInput(OptionalLong.of(0), 4, null, null, now, Optional.of(steady),
                checkedEvery10s));
        assertThat(d.replicas()).isEqualTo(4);
    }
}
