package io.delayq.chaos.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * Writes a run's summary table into {@code docs/reliability.md}, between {@code <!-- chaos:<profile> -->}
 * and {@code <!-- /chaos:<profile> -->}: a full run and a short run each keep their own section, and the
 * hand-written explanation around them stays as it is.
 */
public final class ReliabilityReport {
    private ReliabilityReport() {
    }

    public static String render(String profile, String command, long seed, long wallMillis, List<ScenarioResult> results) {
        StringBuilder md = new StringBuilder();
        md.append("Produced by `").append(command).append("` on ")
                .append(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")))
                .append(" — ").append(Machine.describe()).append(". Random seed ").append(seed)
                .append(", whole suite ").append(String.format("%.1f min", wallMillis / 60000.0)).append(".\n\n");
        md.append("| scenario | tasks acknowledged | lost | fired early | loss window | duplicated tasks (executions) | repeated (id, attempt) "
                + "| first run later than due + lease | dispatch lag p50 / p99 / max | total time | result |\n");
        md.append("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | --- |\n");
        for (ScenarioResult r : results) {
            Figures f = r.figures();
            md.append("| ").append(r.title())
                    .append(" | ").append(String.format("%,d", f.enqueued()))
                    .append(" | **").append(f.lost()).append("**")
                    .append(" | ").append(f.early())
                    .append(" | ").append(lossWindow(r))
                    .append(" | ").append(String.format("%,d (%,d)", f.duplicatedIds(), f.duplicateExecutions()))
                    .append(" | ").append(f.repeatedAttempts()).append(f.readdedRepeats() > 0 ? " (+" + f.readdedRepeats() + " re-enqueued)" : "")
                    .append(" | ").append(String.format("%,d", f.lateBeyondLease()))
                    .append(" | ").append(String.format("%,d / %,d / %,d ms", f.lagP50Millis(), f.lagP99Millis(), f.lagMaxMillis()))
                    .append(" | ").append(String.format("%.1f s", r.totalMillis() / 1000.0))
                    .append(" | ").append(r.passed() ? "pass" : "**FAIL**")
                    .append(" |\n");
        }
        md.append('\n');
        for (ScenarioResult r : results) {
            md.append("<details><summary>").append(r.title()).append("</summary>\n\n");
            md.append(r.setup()).append(".\n\n");
            for (String e : r.events()) {
                md.append("- ").append(e).append('\n');
            }
            if (!r.events().isEmpty()) {
                md.append('\n');
            }
            md.append("| figure | value |\n| --- | --- |\n");
            for (Map.Entry<String, String> d : r.details().entrySet()) {
                md.append("| ").append(d.getKey().strip()).append(" | ").append(d.getValue().replace("|", "\\|")).append(" |\n");
            }
            if (!r.problems().isEmpty()) {
                md.append("\nBroken invariants:\n\n");
                r.problems().forEach(p -> md.append("- ").append(p).append('\n'));
            }
            md.append("\n</details>\n\n");
        }
        return md.toString();
    }

    private static String lossWindow(ScenarioResult r) {
        String documented = r.details().get("loss window documented by Redis");
        String measured = r.figures().lost() == 0 ? "0 ms" : String.format("%,d ms", r.figures().lossWindowMillis());
        if (documented == null) {
            return r.figures().lost() == 0 ? "–" : measured;
        }
        return measured + " (Redis documents " + documented.replaceAll(" \\(.*\\)", "") + ")";
    }

    /** Replaces (or appends) the profile's section of {@code file}. */
    public static void write(Path file, String profile, String section) throws IOException {
        String begin = "<!-- chaos:" + profile + " -->";
        String end = "<!-- /chaos:" + profile + " -->";
        String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "# Reliability\n\n";
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        String block = begin + "\n" + section + end;
        if (b >= 0 && e > b) {
            text = text.substring(0, b) + block + text.substring(e + end.length());
        } else {
            text = text + (text.endsWith("\n") ? "" : "\n") + "\n" + block + "\n";
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
