package io.delayq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sections of a doc that one benchmark owns, between {@code <!-- bench:NAME -->} and {@code <!-- /bench:NAME -->}: a
 * benchmark run rewrites its own and leaves the rest of the doc alone. The same markers keep sections written by hand or
 * by other tools (a Kafka run, a profile script's table and its reading) through a regeneration of the whole doc:
 * {@link #splice} puts each back after the generated section it followed.
 */
final class DocSections {
    private static final Pattern SECTION = Pattern.compile("(?s)<!-- bench:([\\w-]+) -->\n.*?<!-- /bench:\\1 -->");

    private DocSections() {
    }

    /** Replaces the section {@code name} of {@code file} (appends it when its markers are missing). */
    static void write(Path file, String name, String section) throws IOException {
        String begin = "<!-- bench:" + name + " -->";
        String end = "<!-- /bench:" + name + " -->";
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        String block = begin + "\n" + section + end;
        text = b >= 0 && e > b ? text.substring(0, b) + block + text.substring(e + end.length())
                : text + (text.endsWith("\n") ? "" : "\n") + "\n" + block + "\n";
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /**
     * {@code generated} (a freshly written doc, no marked section in it) with every marked section of {@code previous}
     * (the doc it replaces) put back where it was: after the generated "## " section it followed there, in its old order,
     * a blank line on each side. A section whose anchor the generated doc no longer has goes at the end, so that nothing
     * marked is ever dropped.
     */
    static String splice(String previous, String generated) {
        Map<String, List<String>> byAnchor = new LinkedHashMap<>();
        Matcher m = SECTION.matcher(previous);
        int from = 0;
        String anchor = "";
        while (m.find()) {
            anchor = lastHeading(previous.substring(from, m.start()), anchor);
            byAnchor.computeIfAbsent(anchor, k -> new ArrayList<>()).add(m.group());
            from = m.end();
        }
        StringBuilder out = new StringBuilder();
        boolean afterKept = false;
        for (String chunk : chunks(generated)) {
            if (afterKept) {
                out.append('\n');
            }
            out.append(chunk);
            List<String> kept = byAnchor.remove(heading(chunk));
            afterKept = kept != null && append(out, kept);
        }
        for (List<String> orphans : byAnchor.values()) {
            if (afterKept) {
                out.append('\n');
            }
            afterKept = append(out, orphans);
        }
        return out.toString();
    }

    /** The "## " headings outside marked sections, the sections a regeneration rewrites (or drops). */
    static Set<String> unmarkedHeadings(String doc) {
        Set<String> headings = new TreeSet<>();
        for (String chunk : chunks(SECTION.matcher(doc).replaceAll(""))) {
            if (!heading(chunk).isEmpty()) {
                headings.add(heading(chunk));
            }
        }
        return headings;
    }

    private static boolean append(StringBuilder out, List<String> kept) {
        for (int i = 0; i < kept.size(); i++) {
            if (i > 0 || out.length() > 0 && !out.toString().endsWith("\n\n")) {
                out.append(out.toString().endsWith("\n") ? "\n" : "\n\n");
            }
            out.append(kept.get(i)).append('\n');
        }
        return true;
    }

    /** The doc cut before every line that starts a "## " heading: the part before the first, then one per heading. */
    private static List<String> chunks(String doc) {
        List<String> chunks = new ArrayList<>();
        int start = 0;
        for (int at = doc.indexOf("\n## "); at >= 0; at = doc.indexOf("\n## ", at + 1)) {
            chunks.add(doc.substring(start, at + 1));
            start = at + 1;
        }
        chunks.add(doc.substring(start));
        return chunks;
    }

    private static String heading(String chunk) {
        return chunk.startsWith("## ") ? chunk.substring(0, chunk.indexOf('\n') < 0 ? chunk.length() : chunk.indexOf('\n')) : "";
    }

    private static String lastHeading(String text, String otherwise) {
        String last = otherwise;
        for (String line : text.split("\n")) {
            if (line.startsWith("## ")) {
                last = line;
            }
        }
        return last;
    }
}
