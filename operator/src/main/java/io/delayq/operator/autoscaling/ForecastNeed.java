package io.delayq.operator.autoscaling;

import io.delayq.DurationText;
import io.delayq.backlog.DueForecast;
import io.delayq.backlog.DueWindow;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one worker Deployment needs under Forecast autoscaling, before the bounds and the stabilisation window: a
 * pure function of the policy, the range's due backlog and its due forecast.
 * <ul>
 *   <li>The backlog: ceil(due / targetDuePerReplica), as Internal mode.</li>
 *   <li>The coming load: for each forecast window from the lead time to {@code horizon}, the tasks due within it
 *       divided by its length is a due rate; the highest of them divided by the per-replica throughput, rounded up.
 *       The shortest window is the lead time itself: a task enters it just as long before it is due as a pod takes
 *       to start. Where the check interval is known, the arrival slice counts too: the tasks due in the last
 *       interval of the lead window, divided by the interval. Every future moment crosses that slice at one check,
 *       just as the pods asked for then become ready, so a wave due at one instant is sized to be fired within about
 *       an interval instead of being averaged over the whole window.
 *       Only a load of two or more replicas is started ahead; one replica's worth is left to the next rule.</li>
 *   <li>The wake-up: one replica when the next task is due within the lead time, so a Deployment at zero starts
 *       its first pod in time for it and no earlier.</li>
 * </ul>
 * The most of the three wins; with nothing due within the horizon and no backlog, that is zero.
 *
 * @param replicas what the winning rule asks for (not yet within minReplicas and maxReplicas)
 * @param reason   the rule, window and figures behind it, for status and the scaling Event
 */
public record ForecastNeed(long replicas, String reason) {

    public static ForecastNeed of(ForecastPolicy policy, long due, long targetDuePerReplica, DueForecast forecast) {
        long byBacklog = Autoscaler.ceilDiv(due, Math.max(1, targetDuePerReplica));

        DueWindow peak = null;
        double peakRate = 0;
        for (DueWindow w : forecast.windows()) {
            if (w.length().compareTo(policy.leadTime()) < 0 || w.length().compareTo(policy.horizon()) > 0) {
                continue;
            }
            double rate = w.tasks() / seconds(w.length());
            if (rate > peakRate) {
                peakRate = rate;
                peak = w;
            }
        }
        String peakText = peak == null ? null : tasks(peak.tasks()) + " due within " + DurationText.format(peak.length());
        // The arrival slice: a wave due at one instant averages out over a whole window, but not over the slice it
        // crosses when the pods asked for now are ready; sized by the slice, they fire it within about a check interval.
        OptionalLong sliceTasks = slice(forecast, policy);
        if (sliceTasks.isPresent()) {
            double sliceRate = sliceTasks.getAsLong() / seconds(policy.checkInterval());
            if (sliceRate > peakRate) {
                peakRate = sliceRate;
                peakText = tasks(sliceTasks.getAsLong()) + " due between " + DurationText.format(policy.arrivalSliceStart().orElseThrow())
                        + " and " + DurationText.format(policy.leadTime()) + " from now";
            }
        }
        long byRate = peakText == null ? 0 : (long) Math.ceil(peakRate / policy.tasksPerReplicaPerSecond());
        long ahead = byRate >= 2 ? byRate : 0;

        long untilNext = forecast.nextDueAt() < 0 ? -1 : Math.max(0, forecast.nextDueAt() - forecast.at());
        boolean wake = untilNext >= 0 && untilNext <= policy.leadTime().toMillis();

        if (ahead > 0 && ahead >= byBacklog) {
            return new ForecastNeed(ahead, peakText + " (" + number(peakRate) + "/s) at " + policy.throughputText() + " need " + ahead);
        }
        if (byBacklog > 0) {
            return new ForecastNeed(byBacklog, "due backlog " + due + " at " + targetDuePerReplica + " per replica needs " + byBacklog);
        }
        if (wake) {
            return new ForecastNeed(1, "next task due in " + DurationText.human(untilNext) + ", within " + policy.leadText()
                    + ": 1 replica up before it");
        }
        if (untilNext < 0) {
            return new ForecastNeed(0, "no due backlog and nothing waits for a future time");
        }
        if (peak == null) {
            return new ForecastNeed(0, "no due backlog and nothing due within horizon " + DurationText.format(policy.horizon())
                    + " (next at " + Instant.ofEpochMilli(forecast.nextDueAt()) + ")");
        }
        return new ForecastNeed(0, "no due backlog; " + tasks(peak.tasks()) + " due within " + DurationText.format(peak.length())
                + ", one replica's load at most: it starts " + policy.leadText() + " before the next (due at "
                + Instant.ofEpochMilli(forecast.nextDueAt()) + ")");
    }

    /** The tasks in the arrival slice: the lead window's count less that of the window ending at the slice's start. */
    private static OptionalLong slice(DueForecast forecast, ForecastPolicy policy) {
        Optional<Duration> start = policy.arrivalSliceStart();
        if (start.isEmpty()) {
            return OptionalLong.empty();
        }
        OptionalLong toLead = count(forecast, policy.leadTime());
        OptionalLong toStart = count(forecast, start.get());
        return toLead.isPresent() && toStart.isPresent() ? OptionalLong.of(Math.max(0, toLead.getAsLong() - toStart.getAsLong()))
                : OptionalLong.empty();
    }

    private static OptionalLong count(DueForecast forecast, Duration window) {
        return forecast.windows().stream().filter(w -> w.length().equals(window)).mapToLong(DueWindow::tasks).findFirst();
    }

    private static String tasks(long n) {
        return n + (n == 1 ? " task" : " tasks");
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** 4, 0.5, 66.67: a rate as a person reads it. */
    static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        String text = String.format(Locale.ROOT, "%.2f", value);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
