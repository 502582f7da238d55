package io.delayq.operator.autoscaling;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import io.delayq.backlog.DueForecast;
import io.delayq.backlog.ForecastReader;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;

import java.time.Duration;
import java.util.List;
import java.util.TreeSet;

/**
 * The Forecast mode's fields of spec.autoscaling, read and checked, and what the fleet measured in their place
 * ({@link #with}).
 *
 * @param warmup                   the spec'd pod start-up: pods are asked for at least this long before they are due
 * @param horizon                  how far ahead the forecast is read; never shorter than {@code warmup}
 * @param tasksPerReplicaPerSecond what one pod fires per second: measured where the fleet reported it, else spec'd
 * @param leadTime                 how long before they are due pods are asked for: {@code warmup}, or the measured
 *                                 start-up plus one check interval where that is longer (never past the horizon)
 * @param measuredStartup          the measured pod start-up behind {@code leadTime}, or null
 * @param throughputMeasured       whether {@code tasksPerReplicaPerSecond} was measured
 * @param checkInterval            the time between two checks (zero when not known): the length of the arrival slice,
 *                                 the last stretch of the lead window, which every future moment crosses at one check
 */
public record ForecastPolicy(Duration warmup, Duration horizon, double tasksPerReplicaPerSecond, Duration leadTime,
                             Duration measuredStartup, boolean throughputMeasured, Duration checkInterval) {

    /** The spec'd figures alone. */
    public ForecastPolicy(Duration warmup, Duration horizon, double tasksPerReplicaPerSecond) {
        this(warmup, horizon, tasksPerReplicaPerSecond, warmup, null, false, Duration.ZERO);
    }

    /**
     * The arrival slice, (leadTime - checkInterval, leadTime] from now: the tasks in it fall due just as pods asked
     * for now become ready. Absent when the check interval is not known or not shorter than the lead time.
     */
    public java.util.Optional<Duration> arrivalSliceStart() {
        if (checkInterval.isZero() || checkInterval.isNegative() || checkInterval.compareTo(leadTime) >= 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(leadTime.minus(checkInterval));
    }
    public static final Duration MIN_WARMUP = Duration.ofSeconds(1);
    public static final Duration MAX_WARMUP = Duration.ofHours(1);
    public static final Duration MAX_HORIZON = Duration.ofDays(1);

    /** @throws IllegalArgumentException naming the field and the rule it breaks */
    public static ForecastPolicy of(AutoscalingSpec spec) {
        Duration warmup = duration("spec.autoscaling.warmup", spec.getWarmup());
        Duration horizon = duration("spec.autoscaling.horizon", spec.getHorizon());
        if (warmup.compareTo(MIN_WARMUP) < 0 || warmup.compareTo(MAX_WARMUP) > 0) {
            throw new IllegalArgumentException("spec.autoscaling.warmup must be between " + DurationText.format(MIN_WARMUP) + " and "
                    + DurationText.format(MAX_WARMUP) + ", got " + spec.getWarmup());
        }
        if (horizon.compareTo(warmup) < 0) {
            throw new IllegalArgumentException("spec.autoscaling.horizon must not be shorter than spec.autoscaling.warmup ("
                    + spec.getWarmup() + "), got " + spec.getHorizon()
                    + ": the forecast must look at least as far ahead as pods take to start");
        }
        if (horizon.compareTo(MAX_HORIZON) > 0) {
            throw new IllegalArgumentException("spec.autoscaling.horizon must be at most " + DurationText.format(MAX_HORIZON)
                    + ", got " + spec.getHorizon());
        }
        double rate = spec.getTargetTasksPerReplicaPerSecond();
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("spec.autoscaling.targetTasksPerReplicaPerSecond must be above 0, got " + rate);
        }
        return new ForecastPolicy(warmup, horizon, rate);
    }

    /**
     * This policy with what the fleet measured: the measured throughput in place of the spec'd one, and a lead time
     * that covers the measured pod start-up plus one check interval (a task is seen up to one interval after it
     * entered the window). The spec'd warmup stays the least lead time: the user may ask for pods earlier than the
     * cluster needs; the horizon is the most, as nothing further ahead is read.
     */
    public ForecastPolicy with(MeasuredFleet fleet) {
        Duration lead = warmup;
        Duration startup = fleet.podStartup().orElse(null);
        if (startup != null) {
            Duration covered = startup.plus(fleet.checkInterval());
            if (covered.compareTo(lead) > 0) {
                lead = covered.compareTo(horizon) > 0 ? horizon : covered;
            }
        }
        boolean measured = fleet.tasksPerReplicaPerSecond().isPresent() && fleet.tasksPerReplicaPerSecond().getAsDouble() > 0;
        return new ForecastPolicy(warmup, horizon, measured ? fleet.tasksPerReplicaPerSecond().getAsDouble() : tasksPerReplicaPerSecond,
                lead, startup, measured, fleet.checkInterval() == null ? Duration.ZERO : fleet.checkInterval());
    }

    /** The lead time as a reason names it: {@code warmup 60s}, or {@code lead time 45s (pods started in 35s + check 10s)}. */
    String leadText() {
        if (leadTime.equals(warmup)) {
            return "warmup " + DurationText.format(warmup);
        }
        return "lead time " + DurationText.format(leadTime) + " (pods started in " + DurationText.format(measuredStartup)
                + " + check " + DurationText.format(leadTime.minus(measuredStartup)) + ")";
    }

    /** The per-replica throughput as a reason names it: {@code 50/s per replica}, marked when it was measured. */
    String throughputText() {
        return ForecastNeed.number(tasksPerReplicaPerSecond) + "/s per replica" + (throughputMeasured ? " (measured)" : "");
    }

    /**
     * The windows the probe reads: the defaults every status shows, and under Forecast the warmup and the horizon,
     * the two the decision cannot do without.
     */
    public static List<Duration> windowsFor(AutoscalingSpec spec) {
        return windowsFor(spec, MeasuredFleet.none());
    }

    /** As {@link #windowsFor(AutoscalingSpec)}, and the lead time and the arrival slice's start {@link #with} gives for {@code fleet}. */
    public static List<Duration> windowsFor(AutoscalingSpec spec, MeasuredFleet fleet) {
        if (spec == null || spec.getMode() != AutoscalingMode.Forecast) {
            return DueForecast.DEFAULT_WINDOWS;
        }
        ForecastPolicy policy = of(spec).with(fleet);
        TreeSet<Duration> windows = new TreeSet<>(DueForecast.DEFAULT_WINDOWS);
        windows.add(policy.warmup());
        windows.add(policy.horizon());
        windows.add(policy.leadTime());
        policy.arrivalSliceStart().ifPresent(windows::add);
        // eight at most, well under the reader's limit
        return List.copyOf(windows).subList(0, Math.min(windows.size(), ForecastReader.MAX_WINDOWS));
    }

    private static Duration duration(String field, String text) {
        try {
            return DurationText.require(field, text);
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
