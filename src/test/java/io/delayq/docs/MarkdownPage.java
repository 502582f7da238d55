package io.delayq.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One markdown page read the way GitHub renders it, as far as the doc checks need: which lines are prose and which
 * are inside a fenced block, the links of the prose, its code spans, and the anchors its headings make.
 */
final class MarkdownPage {
    /** An inline link or image, {@code [text](target)} or {@code [text](<target> "title")}. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition, {@code [name]: target}. */
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    /** A piece of the page with the line it is on (1-based). */
    record At(int line, String text) {
    }

    private final Path file;
    private final List<String> lines;
    private final boolean[] fenced;

    private MarkdownPage(Path file, List<String> lines) {
        this.file = file;
        this.lines = lines;
        this.fenced = new boolean[lines.size()];
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            boolean fence = lines.get(i).stripLeading().startsWith("```");
            fenced[i] = inFence || fence;
            if (fence) {
                inFence = !inFence;
            }
        }
    }

    static MarkdownPage read(Path file) {
        try {
            return new MarkdownPage(file, Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path file() {
        return file;
    }

    /** Every link target of the prose (fenced blocks hold no links), as written. */
    List<At> links() {
        List<At> out = new ArrayList<>();
        forProse((line, text) -> {
            Matcher m = INLINE_LINK.matcher(text);
            while (m.find()) {
                out.add(new At(line, m.group(1)));
            }
            Matcher r = REFERENCE.matcher(text);
            if (r.matches()) {
                out.add(new At(line, r.group(1)));
            }
        });
        return out;
    }

    /** The content of every code span of the prose. */
    List<At> codeSpans() {
        List<At> out = new ArrayList<>();
        forProse((line, text) -> {
            Matcher m = CODE_SPAN.matcher(text);
            while (m.find()) {
                out.add(new At(line, m.group(1)));
            }
        });
        return out;
    }

    /** The lines inside fenced blocks (diagrams, commands, examples), without the fences themselves. */
    List<At> fencedLines() {
        List<At> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (fenced[i] && !lines.get(i).stripLeading().startsWith("```")) {
                out.add(new At(i + 1, lines.get(i)));
            }
        }
        return out;
    }

    /** The anchors a link can name: GitHub's slug of each heading (repeats get -1, -2, ...) and explicit HTML anchors. */
    Set<String> anchors() {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        forProse((line, text) -> {
            Matcher h = HEADING.matcher(text);
            if (h.matches()) {
                String slug = slug(h.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(text);
            while (a.find()) {
                out.add(a.group(1));
            }
        });
        return out;
    }

    /** GitHub's heading slug: lower case, punctuation other than '-' and '_' dropped, each space a '-'. */
    static String slug(String heading) {
        String lower = heading.toLowerCase(Locale.ROOT);
        StringBuilder s = new StringBuilder(lower.length());
        lower.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                s.appendCodePoint(c);
            } else if (c == ' ') {
                s.append('-');
            }
        });
        return s.toString();
    }

    private void forProse(LineVisitor visitor) {
        for (int i = 0; i < lines.size(); i++) {
            if (!fenced[i]) {
                visitor.visit(i + 1, lines.get(i));
            }
        }
    }

    private interface LineVisitor {
        void visit(int line, String text);
    }
}
