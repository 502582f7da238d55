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
 * The Forecast mode's fields of spec.autoscaling, read and checked.
 *
 * @param warmup                   how long before they are due the pods for a task must be asked for
 * @param horizon                  how far ahead the forecast is read; never shorter than {@code warmup}
 * @param tasksPerReplicaPerSecond what one pod fires per second (spec'd, not measured)
 */
public record ForecastPolicy(Duration warmup, Duration horizon, double tasksPerReplicaPerSecond) {
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
     * The windows the probe reads: the defaults every status shows, and under Forecast the warmup and the horizon,
     * the two the decision cannot do without.
     */
    public static List<Duration> windowsFor(AutoscalingSpec spec) {
        if (spec == null || spec.getMode() != AutoscalingMode.Forecast) {
            return DueForecast.DEFAULT_WINDOWS;
        }
        ForecastPolicy policy = of(spec);
        TreeSet<Duration> windows = new TreeSet<>(DueForecast.DEFAULT_WINDOWS);
        windows.add(policy.warmup());
        windows.add(policy.horizon());
        // six at most, well under the reader's limit
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
