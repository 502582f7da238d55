package io.delayq.completion;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class BoundedResultTest {
    @Test
    void aResultWithinTheBoundIsKeptWhole() {
        assertThat(BoundedResult.of("ok")).isEqualTo(new BoundedResult("ok", false));
        assertThat(BoundedResult.of(null)).isEqualTo(BoundedResult.NONE);
        String exactly = "a".repeat(1024);
        assertThat(BoundedResult.of(exactly)).isEqualTo(new BoundedResult(exactly, false));
    }

    @Test
    void aLongerOneIsCutBeforeTheFirstCharacterThatDoesNotFitWhole() {
        assertThat(BoundedResult.of("a".repeat(1025))).isEqualTo(new BoundedResult("a".repeat(1024), true));
        // 1023 one-byte characters, then a 4-byte one (a surrogate pair in Java) that would end at byte 1027
        BoundedResult cut = BoundedResult.of("a".repeat(1023) + "😀" + "b");
        assertThat(cut).isEqualTo(new BoundedResult("a".repeat(1023), true));
        assertThat(BoundedResult.of("€".repeat(400)).text().getBytes(StandardCharsets.UTF_8)).hasSize(1023);
    }
}
