package io.delayq.cli;

import io.delayq.localredis.LocalRedisServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every queue command against a closed port: exit 3 and one line naming the URL, never a stack trace. */
class ConnectionErrorsTest {
    private static final String CLOSED = "redis://127.0.0.1:" + LocalRedisServer.freePort();

    @ParameterizedTest
    @ValueSource(strings = {"enqueue a --delay 1s --shards 4", "cancel a", "reschedule a --delay 1m", "inspect a", "stats",
            "top --iterations 1", "dead list", "dead replay --all", "dead purge --all"})
    void unreachableRedisExitsThreeWithOneLine(String command) {
        CliRun r = CliRun.run(Map.of("REDIS_URL", CLOSED, "DELAYQ_QUEUE", "orders"), command.split(" "));

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.REDIS);
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err()).startsWith("delayq " + command.split(" --")[0].replaceAll(" a$", "") + ": redis: cannot connect to " + CLOSED);
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"inspect", "stats"})
    void invalidInputIsReportedEvenWhenRedisIsDown(String command) {
        CliRun r = CliRun.run(Map.of("REDIS_URL", CLOSED), command.equals("inspect") ? new String[]{"inspect", ""} : new String[]{"stats"});

        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains(command.equals("inspect") ? "id: must not be empty" : "queue: no queue name");
    }
}
