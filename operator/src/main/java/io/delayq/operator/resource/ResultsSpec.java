package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

import static io.delayq.settings.WorkerSettings.*;

/** Completion records kept after each ack, for inspect: off (keep 0s) unless asked for. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ResultsSpec {
    @JsonPropertyDescription("How long a completion record (finished at, attempts, worker, handler time, a result of at most 1 KiB) is kept after each ack, e.g. 1h; 0s = none (the default).")
    @Default(DEFAULT_RESULTS_KEEP)
    @Pattern(Durations.PATTERN)
    private String keep = DEFAULT_RESULTS_KEEP;

    @JsonPropertyDescription("Most completion records kept per shard; the oldest go first.")
    @Default("" + DEFAULT_RESULTS_MAX_PER_SHARD)
    @Min(1)
    @Max(MAX_RESULTS_PER_SHARD)
    private long maxPerShard = DEFAULT_RESULTS_MAX_PER_SHARD;

    public String getKeep() {
        return keep;
    }

    public void setKeep(String keep) {
        this.keep = keep;
    }

    public long getMaxPerShard() {
        return maxPerShard;
    }

    public void setMaxPerShard(long maxPerShard) {
        this.maxPerShard = maxPerShard;
    }
}
