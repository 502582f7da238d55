package io.delayq.chaos.recorder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Reads every execution the recorders wrote, from all worker incarnations' files. */
public final class ExecutionLog {
    private ExecutionLog() {
    }

    public static List<Execution> read(Collection<Path> files) {
        List<Execution> all = new ArrayList<>();
        for (Path f : files) {
            if (!Files.exists(f)) {
                continue; // that incarnation was killed before its handler started
            }
            try {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    Execution e = Execution.parse(line);
                    if (e != null) {
                        all.add(e);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read record file " + f, e);
            }
        }
        return all;
    }
}
