package io.delayq.task;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** How an id appears in a log line: readable when it is UTF-8 text, byte-exact when it is not. */
class TaskIdTextTest {
    @Test
    void utf8TextStaysReadableWithControlCharactersQuotesAndBackslashesEscaped() {
        assertThat(TaskIdText.show("order-8812")).isEqualTo("order-8812");
        assertThat(TaskIdText.show("zamówienie-ł")).isEqualTo("zamówienie-ł");
        assertThat(TaskIdText.show("a\"b\\c\nd\u0000")).isEqualTo("a\\\"b\\\\c\\x0ad\\x00");
    }

    @Test
    void bytesThatAreNotUtf8ShowAsHexEscapes() {
        byte[] id = {'b', 'i', 'n', (byte) 0xff, (byte) 0xfe, 'i', 'd'};
        assertThat(TaskIdText.show(id)).isEqualTo("bin\\xff\\xfeid");
        byte[] mixed = "é".getBytes(StandardCharsets.UTF_8);
        byte[] broken = {mixed[0], mixed[1], (byte) 0xc0};
        assertThat(TaskIdText.show(broken)).as("one bad byte: every non-ASCII byte as hex").isEqualTo("\\xc3\\xa9\\xc0");
    }
}
