package io.delayq.interop;

import io.delayq.testing.LocalRedisCluster;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Go library's own tests ({@code go test} in clients/go: the shared protocol vectors, the Java rules and
 * messages, the embedded scripts equal to core's files, every operation) on this class's Redis and on a three-node
 * Redis Cluster of its own, each a real redis-server or, on a machine without one, the embedded Redis: so they run,
 * and none is skipped, in every pass of CI. Skipped locally where the Go library is not built, failed under CI.
 */
class GoClientTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void theGoLibrarysTestsPassOnARealRedisAndARealCluster() throws IOException, InterruptedException {
        Producer.go().requireInstalled();
        Path dir = Producer.clientsDir().resolve("go");
        Path log = Files.createTempFile("delayq-go-test-", ".log");
        ProcessBuilder pb = new ProcessBuilder(List.of("go", "test", "-count=1", "-v", "./..."))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("DELAYQ_TEST_REDIS_URL", redis.url());
        pb.environment().put("GOPROXY", "off");
        pb.environment().put("GOSUMDB", "off");
        pb.environment().put("GOFLAGS", "-mod=mod");
        Process go;
        boolean done;
        try (LocalRedisCluster cluster = LocalRedisCluster.start(3)) {
            pb.environment().put("DELAYQ_TEST_REDIS_CLUSTER_URL", cluster.url());
            go = pb.start();
            done = go.waitFor(5, TimeUnit.MINUTES);
            if (!done) {
                go.destroyForcibly();
            }
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        assertThat(done).as("go test finished within 5 minutes:\n%s", output).isTrue();
        assertThat(go.exitValue()).as("go test:\n%s", output).isZero();
        assertThat(output).as("go test:\n%s", output).contains("--- PASS: TestEveryOperationOnARealRedis")
                .contains("--- PASS: TestEveryOperationOnARealRedisCluster")
                .contains("--- PASS: TestShardsAndBucketsMatchTheSharedVectors")
                .contains("--- PASS: TestTheEmbeddedScriptsAreCoresScriptsExactly")
                .doesNotContain("--- SKIP").doesNotContain("--- FAIL");
    }
}
