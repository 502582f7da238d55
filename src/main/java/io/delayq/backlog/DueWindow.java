package io.delayq.backlog;

import java.time.Duration;

/** The waiting tasks whose due time lies within {@code length} from now (not yet due: those are the backlog). */
public record DueWindow(Duration length, long tasks) {
}
