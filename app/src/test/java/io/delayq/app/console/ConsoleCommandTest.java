package io.delayq.app.console;

import io.delayq.localredis.LocalRedisServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code delayq console} on a port that is taken says so at once, naming the port and how to choose another. */
class ConsoleCommandTest {
    @Test
    void aTakenPortExitsTwoBeforeAnyRedisIsStartedOrFilled() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();

            int code = ConsoleCommand.run(Map.of("DELAYQ_CONSOLE_PORT", String.valueOf(taken.getLocalPort())),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

            assertThat(code).isEqualTo(2);
            assertThat(out.toString(StandardCharsets.UTF_8)).as("nothing started").isEmpty();
            assertThat(err.toString(StandardCharsets.UTF_8).trim())
                    .startsWith("delayq console: cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .contains("--port").contains("DELAYQ_CONSOLE_PORT");
        }
    }

    @Test
    void aBadSettingIsNamedBeforeAnyRedisIsStarted() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = ConsoleCommand.run(Map.of("DELAYQ_CONSOLE_PORT", "70000"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("DELAYQ_CONSOLE_PORT").contains("70000");
    }

    @Test
    void aRedisThatWantsAPasswordGetsOneLineSayingWhatToSet() {
        try (LocalRedisServer redis = LocalRedisServer.start("--requirepass", "console-pw-91c3")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();

            int code = ConsoleCommand.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_CONSOLE_PORT", "0"),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

            assertThat(code).isEqualTo(3);
            assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly("delayq console: Redis requires a password "
                    + "and none was given (it answered NOAUTH): set DELAYQ_REDIS_PASSWORD (and DELAYQ_REDIS_USERNAME for an ACL user), "
                    + "or put the password in the URL (DELAYQ_REDIS_URL): redis://:PASSWORD@host:6379");
        }
    }
}
