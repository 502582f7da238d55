package io.delayq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/bench.md is rewritten by ./bench/run.sh, and holds sections it does not write (other benchmarks', profile
 * scripts' tables, readings written by hand). These tests run the splice on the committed doc, so that a regeneration
 * keeps every such section word for word, and fail when one sits outside markers, where a regeneration would drop it.
 */
class DocSectionsTest {
    private static final Path DOC = Path.of("..", "docs", "bench.md");
    private static final Pattern MARKED = Pattern.compile("(?s)<!-- bench:([\\w-]+) -->\n.*?<!-- /bench:\\1 -->\n\n?");

    @Test
    void regeneratingTheSameFiguresGivesTheCommittedDocBack() throws IOException {
        String doc = read(DOC);
        String generated = MARKED.matcher(doc).replaceAll("");

        assertThat(DocSections.splice(doc, generated)).isEqualTo(doc);
    }

    @Test
    void everyMarkedSectionSurvivesARegenerationWithOtherSections() throws IOException {
        String doc = read(DOC);
        // a run that writes only the header and the results (no profile, no worker costs, other notes)
        String generated = "# delayq benchmarks\n\nother figures\n\n## Results\n\nnew table\n\n## Notes: what the systems are\n\nnew notes\n";

        String spliced = DocSections.splice(doc, generated);

        List<String> sections = marked(doc);
        assertThat(sections).hasSizeGreaterThanOrEqualTo(8);
        for (String section : sections) {
            assertThat(spliced).contains(section);
        }
        assertThat(spliced).startsWith("# delayq benchmarks\n\nother figures\n\n## Results\n\nnew table\n\n## Notes");
        assertThat(marked(spliced)).containsExactlyElementsOf(sections);
    }

    @Test
    void aSectionGoesBackAfterTheGeneratedSectionItFollowed() {
        String previous = "# t\n\n## A\n\nold a\n\n<!-- bench:x -->\n## X\n\nby hand\n<!-- /bench:x -->\n\n## B\n\nold b\n";

        assertThat(DocSections.splice(previous, "# t\n\n## A\n\nnew a\n\n## B\n\nnew b\n"))
                .isEqualTo("# t\n\n## A\n\nnew a\n\n<!-- bench:x -->\n## X\n\nby hand\n<!-- /bench:x -->\n\n## B\n\nnew b\n");
        // its anchor gone: at the end rather than lost
        assertThat(DocSections.splice(previous, "# t\n\n## B\n\nnew b\n"))
                .isEqualTo("# t\n\n## B\n\nnew b\n\n<!-- bench:x -->\n## X\n\nby hand\n<!-- /bench:x -->\n");
    }

    /**
     * Every "## " section of the doc outside markers must be one the harness writes (a "## " literal of its sources or
     * of the notes it copies): any other would be lost by the next ./bench/run.sh.
     */
    @Test
    void everyUnmarkedSectionIsOneTheHarnessWrites() throws IOException {
        Set<String> written = new TreeSet<>();
        Pattern literal = Pattern.compile("\"(?:\\\\n)*(## [^\"\\\\]+)");
        try (Stream<Path> sources = Files.walk(Path.of("src", "main"))) {
            for (Path source : sources.filter(Files::isRegularFile).toList()) {
                String text = read(source);
                Matcher m = literal.matcher(text);
                while (m.find()) {
                    written.add(m.group(1));
                }
                for (String line : text.split("\n")) {
                    if (line.startsWith("## ")) {
                        written.add(line);
                    }
                }
            }
        }

        assertThat(DocSections.unmarkedHeadings(read(DOC)))
                .as("sections of docs/bench.md that ./bench/run.sh does not write: put each between <!-- bench:NAME --> markers")
                .isNotEmpty()
                .allSatisfy(heading -> assertThat(written).contains(heading));
    }

    @Test
    void aHandWrittenSectionOutsideMarkersIsNoticed() {
        assertThat(DocSections.unmarkedHeadings("# t\n\n## A\n\n<!-- bench:x -->\n## X\n<!-- /bench:x -->\n\n## By hand\n\ntext\n"))
                .containsExactly("## A", "## By hand");
    }

    private static List<String> marked(String doc) {
        List<String> sections = new ArrayList<>();
        Matcher m = Pattern.compile("(?s)<!-- bench:([\\w-]+) -->\n.*?<!-- /bench:\\1 -->").matcher(doc);
        while (m.find()) {
            sections.add(m.group());
        }
        return sections;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
