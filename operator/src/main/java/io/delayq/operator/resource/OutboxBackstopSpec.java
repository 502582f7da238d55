package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

import static io.delayq.settings.WorkerSettings.DEFAULT_OUTBOX_BACKSTOP_INTERVAL;

/** The backstop of this queue (docs/outbox.md, "The backstop"): what it had to add counts as repaired. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OutboxBackstopSpec {
    @JsonPropertyDescription("SQL returning the columns task_id, due_at (NULL: now) and optionally payload of the tasks that should exist. "
            + "It must not name tasks that legitimately fired and are gone.")
    @Required
    @Size(min = 1, max = 16384)
    private String query;

    @JsonPropertyDescription("How often the query runs, e.g. 5m (1s-1d).")
    @Default(DEFAULT_OUTBOX_BACKSTOP_INTERVAL)
    @Pattern(Durations.PATTERN)
    private String interval = DEFAULT_OUTBOX_BACKSTOP_INTERVAL;

    public String getQuery() {
        return query;
    }

    public void setQuery(String query) {
        this.query = query;
    }

    public String getInterval() {
        return interval;
    }

    public void setInterval(String interval) {
        this.interval = interval;
    }
}
