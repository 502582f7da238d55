package io.delayq.cli.deadletter;

import io.delayq.DurationText;
import io.delayq.cli.text.Instants;
import io.delayq.cli.text.Table;
import io.delayq.deadletter.DeadLetter;
import io.delayq.task.TaskRecord;

import java.io.PrintWriter;
import java.util.List;

/** Dead letters as a table or as JSON entries. */
final class DeadLetterView {
    private static final int ERROR_WIDTH = 80;

    record Entry(String id, int shard, String diedAt, long ageMillis, int attempts, String lastError, String payload) {
    }

    record ListJson(String queue, long matched, long total, List<Entry> deadLetters) {
    }

    private DeadLetterView() {
    }

    static List<Entry> entries(List<DeadLetter> letters, long serverNow) {
        return letters.stream().map(d -> new Entry(d.id(), d.shard(), Instants.utc(d.diedAt()), serverNow - d.diedAt(),
                d.attempts(), d.lastError(), payload(d.rawRecord()))).toList();
    }

    static void table(PrintWriter out, List<DeadLetter> letters, long serverNow) {
        if (letters.isEmpty()) {
            return;
        }
        Table t = new Table(List.of("SHARD", "ID", "DIED (UTC)", "AGE", "ATTEMPTS", "LAST ERROR"), true, false, false, true, true, false);
        for (DeadLetter d : letters) {
            t.row(d.shard(), d.id(), Instants.utc(d.diedAt()), DurationText.human(serverNow - d.diedAt()), d.attempts(), shorten(d.lastError()));
        }
        t.print(out);
    }

    private static String shorten(String error) {
        if (error == null) {
            return "-";
        }
        String e = error.replaceAll("\\s+", " ");
        return e.length() <= ERROR_WIDTH ? e : e.substring(0, ERROR_WIDTH - 1) + "…";
    }

    private static String payload(String raw) {
        try {
            return TaskRecord.decode(raw).payload();
        } catch (TaskRecord.MalformedRecordException e) {
            return raw;
        }
    }
}
