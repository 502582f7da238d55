package io.delayq.app.demo;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's one-command local run, as a newcomer gets it: no REDIS_URL, so the demo starts its
 * own redis-server, fires the sample orders, retries the flaky one and dead-letters the broken ones.
 */
class DemoProcessTest {

    @Test
    void demoRunsWithoutAnyRedisConfiguredAndShowsFiringRetriesAndDeadLetters() throws Exception {
        Path jar = Path.of("target", "delayq.jar").toAbsolutePath();
        Path log = Files.createTempFile("delayq-demo-", ".log");
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "demo", "--once")).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("DELAYQ_") || k.equals("REDIS_URL"));
        Process demo = pb.start();
        boolean exited = demo.waitFor(90, TimeUnit.SECONDS);
        if (!exited) {
            demo.destroyForcibly();
        }
        String out = Files.readString(log);
        assertThat(exited).as(out).isTrue();
        assertThat(demo.exitValue()).as(out).isZero();
        assertThat(out).contains("No REDIS_URL set: started a local redis-server")
                .contains("Metrics: http://localhost:")
                .contains("unpaid order cancelled")
                .contains("payment gateway timed out: will retry")
                .contains("(attempt 3) fired")
                .contains("dead-lettered at once")
                .contains("fails, dead-lettered")
                .containsPattern("dead 2")
                // the worker's own line per failed attempt, naming the next step
                .contains("failed on attempt 1 of 3 (queue demo-orders, shard ").contains("dead-lettered (permanent failure)");
        // failures are told in one line each: never a stack trace
        assertThat(out).doesNotContain("\tat ").doesNotContain("Caused by").doesNotContain("Exception in thread");
    }
}
