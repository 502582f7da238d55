package io.delayq.cli.deadletter;

import io.delayq.cli.CliException;
import io.delayq.cli.text.DurationConverter;
import io.delayq.DurationText;
import io.delayq.deadletter.DeadLetter;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.Locale;

/** Which dead letters a {@code dead} command works on. Ages are measured on the Redis server clock. */
public class DeadLetterFilter {
    @Option(names = "--older-than", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Only tasks that died more than this long ago (e.g. 1h, 7d).")
    Duration olderThan;

    @Option(names = "--newer-than", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Only tasks that died less than this long ago.")
    Duration newerThan;

    @Option(names = "--error-contains", paramLabel = "TEXT",
            description = "Only tasks whose last error contains this text (case-insensitive).")
    String errorContains;

    @Option(names = "--shard", paramLabel = "N", description = "Only this shard.")
    Integer shard;

    @Option(names = "--limit", paramLabel = "N",
            description = "At most N dead letters, oldest first (list: default 100; replay and purge: default all that match).")
    Integer limit;

    void validate() {
        if (limit != null && limit < 1) {
            throw CliException.usage("limit: must be 1 or more, got " + limit);
        }
        if (shard != null && shard < 0) {
            throw CliException.usage("shard: must be 0 or more, got " + shard);
        }
        if (olderThan != null && newerThan != null && newerThan.compareTo(olderThan) <= 0) {
            throw CliException.usage("newer-than: must be longer than --older-than (" + DurationText.human(olderThan.toMillis())
                    + ") or nothing can match, got " + DurationText.human(newerThan.toMillis()));
        }
    }

    /** Whether any narrowing filter (not just a limit) was given. */
    boolean narrows() {
        return olderThan != null || newerThan != null || errorContains != null || shard != null;
    }

    boolean matches(DeadLetter d, long serverNow) {
        long age = serverNow - d.diedAt();
        if (olderThan != null && age < olderThan.toMillis()) {
            return false;
        }
        if (newerThan != null && age >= newerThan.toMillis()) {
            return false;
        }
        if (errorContains != null) {
            String e = d.lastError() == null ? "" : d.lastError();
            return e.toLowerCase(Locale.ROOT).contains(errorContains.toLowerCase(Locale.ROOT));
        }
        return true;
    }

    /** Dead sets are ordered by time of death: past this point of a shard nothing older can follow. */
    boolean pastOldest(DeadLetter d, long serverNow) {
        return olderThan != null && serverNow - d.diedAt() < olderThan.toMillis();
    }
}
