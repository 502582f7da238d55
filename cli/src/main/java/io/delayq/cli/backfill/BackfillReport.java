package io.delayq.cli.backfill;

import java.util.ArrayList;
import java.util.List;

/** What a backfill did: rows added, rows whose id was already there, and each rejected row with its reason. */
public final class BackfillReport {
    public record Rejected(long line, String reason) {
    }

    private long added;
    private long alreadyPresent;
    private final List<Rejected> rejected = new ArrayList<>();

    void added() {
        added++;
    }

    void alreadyPresent() {
        alreadyPresent++;
    }

    void rejected(long line, String reason) {
        rejected.add(new Rejected(line, reason));
    }

    public long getAdded() {
        return added;
    }

    public long getAlreadyPresent() {
        return alreadyPresent;
    }

    public List<Rejected> getRejected() {
        return rejected;
    }
}
