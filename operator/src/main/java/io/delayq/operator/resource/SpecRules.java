package io.delayq.operator.resource;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import io.delayq.operator.autoscaling.ForecastPolicy;
import io.delayq.settings.WorkerSettings;

import java.time.Duration;

/**
 * The rules that the CRD's CEL rules cannot check in every syntax the fields accept (CEL's {@code duration()} reads
 * neither days nor ISO-8601): each duration field's range ({@link DurationRanges}) and the rules between fields. A
 * resource that breaks one would give workers that refuse to start (or, for the Forecast fields of spec.autoscaling,
 * an autoscaler that cannot decide), so the operator reports it (condition and Event,
 * reason InvalidSpec) and leaves the running workers as they are.
 */
public final class SpecRules {
    private SpecRules() {
    }

    /** @throws IllegalArgumentException naming the fields and the rule */
    public static void check(DelayQueueSpec spec) {
        DurationRanges.check(spec);
        if (spec.getAutoscaling() != null) {
            // in every mode: switching to Forecast should not be what first reveals a bad value
            ForecastPolicy.of(spec.getAutoscaling());
        }
        if (spec.getClaimAhead() == null) {
            return;
        }
        Duration lease;
        Duration ahead;
        try {
            lease = DurationText.require("spec.lease", spec.getLease());
            ahead = DurationText.require("spec.claimAhead", spec.getClaimAhead());
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Duration limit = WorkerSettings.maxClaimAhead(lease);
        if (ahead.compareTo(limit) > 0) {
            throw new IllegalArgumentException("spec.claimAhead must be 0s (off) or at most a tenth of spec.lease ("
                    + DurationText.format(limit) + " for a lease of " + spec.getLease() + "), got " + spec.getClaimAhead()
                    + ": a task claimed ahead waits under its claim's lease");
        }
    }
}
