package io.delayq.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cli.md runs the CLI the way the README does, through the {@code ./delayq} script at the top of the checkout
 * (never through Maven), and every command line it shows is one this CLI accepts as written.
 */
class CliDocsTest {
    private static final Path DOC = Path.of("..", "docs", "cli.md");
    private static final String SCRIPT = "./delayq ";

    private static List<String> codeLines() throws IOException {
        List<String> lines = new ArrayList<>();
        boolean inCode = false;
        for (String line : Files.readAllLines(DOC)) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            } else if (inCode) {
                lines.add(line);
            }
        }
        return lines;
    }

    @Test
    void theDocRunsTheCliThroughTheScriptNotMaven() throws IOException {
        String doc = Files.readString(DOC);
        assertThat(doc).doesNotContain("exec:java", "mvn ");
        assertThat(codeLines()).as("command lines of docs/cli.md that run a bare delayq")
                .noneMatch(l -> l.matches("(\\$ |.*\\| )?delayq\\b.*"));
        assertThat(Path.of("..", "delayq")).as("the script the doc runs").isExecutable();
    }

    @Test
    void everyCommandLineOfTheDocParsesAsWritten() throws IOException {
        List<String> commands = codeLines().stream().filter(l -> l.contains(SCRIPT))
                .map(l -> l.substring(l.indexOf(SCRIPT) + SCRIPT.length())).toList();
        assertThat(commands).hasSizeGreaterThanOrEqualTo(8);
        for (String command : commands) {
            String[] args = shellWords(command);
            if (args[0].equals("--help")) {
                CliRun help = CliRun.run(args);
                assertThat(help.exitCode()).as(command).isZero();
                assertThat(help.out()).as(command).contains("Usage: delayq");
                continue;
            }
            CommandLine.ParseResult parsed = Cli.commandLine().parseArgs(args);
            assertThat(parsed.hasSubcommand()).as(command).isTrue();
        }
    }

    /** The words a POSIX shell makes of a line (quotes, no expansions), up to a comment. */
    private static String[] shellWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break;
            } else {
                word = word == null ? new StringBuilder().append(c) : word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words.toArray(String[]::new);
    }
}
