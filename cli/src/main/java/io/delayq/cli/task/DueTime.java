package io.delayq.cli.task;

import io.delayq.cli.text.DurationConverter;
import io.delayq.cli.text.InstantConverter;
import io.delayq.task.Schedule;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;

/** {@code --delay DURATION | --at INSTANT}: exactly one, as an exclusive argument group. */
public class DueTime {
    @Option(names = "--delay", paramLabel = "DURATION", converter = DurationConverter.class, required = true,
            description = "Due after this delay, measured on the Redis server's clock: 500ms, 30s, 5m, 2h, 14d or ISO-8601 (PT30S).")
    Duration delay;

    @Option(names = "--at", paramLabel = "INSTANT", converter = InstantConverter.class, required = true,
            description = "Due at this instant, ISO-8601 with a zone: 2026-12-01T10:00:00Z or 2026-12-01T11:00:00+01:00.")
    Instant at;

    Schedule schedule() {
        return at != null ? Schedule.at(at) : Schedule.after(delay);
    }
}
