package io.delayq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sections of a doc that one benchmark owns, between {@code <!-- bench:NAME -->} and {@code <!-- /bench:NAME -->}: a
 * benchmark run rewrites its own and leaves the rest of the doc alone.
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

    /** Every marked section of {@code file}, markers included, in their order (none when the file does not exist). */
    static List<String> in(Path file) throws IOException {
        List<String> sections = new ArrayList<>();
        if (Files.exists(file)) {
            Matcher m = SECTION.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (m.find()) {
                sections.add(m.group());
            }
        }
        return sections;
    }
}
