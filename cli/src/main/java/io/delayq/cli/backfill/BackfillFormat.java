package io.delayq.cli.backfill;

import io.delayq.cli.CliException;

import java.nio.file.Path;
import java.util.Locale;

/** {@code --format jsonl|csv}, or guessed from the file name. */
public enum BackfillFormat {
    JSONL, CSV;

    static BackfillFormat of(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".csv")) {
            return CSV;
        }
        if (name.endsWith(".jsonl") || name.endsWith(".ndjson") || name.endsWith(".json")) {
            return JSONL;
        }
        throw CliException.usage("format: cannot tell the format of '" + file + "' from its name (.jsonl, .ndjson, .json or .csv); "
                + "pass --format jsonl or --format csv");
    }
}
