package io.delayq.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README.md is the entry page: short enough to read through (detail lives in docs/*.md, linked from it), and it
 * shows how to run delayq before how to test it, since the test command takes far longer than the demo. The test
 * command itself stays as written: CI's .ci/run runs exactly it first.
 */
class ReadmeTest {
    static final int MAX_BYTES = 15_000;
    static final String RUN_COMMAND = "```sh\n./delayq demo\n```";
    static final String TEST_COMMAND = "```sh\nmvn verify\n```";

    private final Path readme = RepoTree.find().root().resolve("README.md");

    @Test
    void theReadmeStaysAnEntryPageOfAtMost15Kb() throws IOException {
        long bytes = Files.size(readme);
        assertThat(bytes)
                .withFailMessage("README.md is %,d bytes, more than %,d: move detail into the docs/*.md page it belongs to "
                        + "and link it from the README", bytes, MAX_BYTES)
                .isLessThanOrEqualTo(MAX_BYTES);
    }

    @Test
    void theReadmeRunsTheDemoBeforeItShowsTheTestCommand() throws IOException {
        String text = Files.readString(readme);
        int run = text.indexOf(RUN_COMMAND);
        int test = text.indexOf(TEST_COMMAND);
        assertThat(run).as("README.md shows %s", RUN_COMMAND).isNotNegative();
        assertThat(test).as("README.md shows the test command CI runs, %s", TEST_COMMAND).isNotNegative();
        assertThat(run).as("the demo comes before the test command").isLessThan(test);
    }
}
