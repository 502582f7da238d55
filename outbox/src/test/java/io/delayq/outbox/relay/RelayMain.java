package io.delayq.outbox.relay;

import io.delayq.outbox.row.OutboxRow;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/**
 * A relay in a process of its own, for the kill -9 tests: {@code RelayMain JDBC_URL REDIS_URL STOP MARKER}. With
 * STOP {@code after-claim} or {@code after-redis} its first non-empty round writes MARKER at that point and
 * then hangs there, waiting to be killed.
 */
public final class RelayMain {
    private RelayMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String stop = args[2];
        Path marker = Path.of(args[3]);
        RelayHook hook = new RelayHook() {
            @Override
            public void claimed(Connection claimant, List<OutboxRow> rows) {
                if (stop.equals("after-claim")) {
                    hang(marker);
                }
            }

            @Override
            public void appliedToRedis(Connection claimant, List<OutboxRow> rows) {
                if (stop.equals("after-redis")) {
                    hang(marker);
                }
            }
        };
        OutboxRelay.start(RelayConfig.builder().jdbcUrl(args[0]).user("delayq").redisUrl(args[1])
                .pollInterval(Duration.ofMillis(200)).build(), new SimpleMeterRegistry(), hook);
        Thread.currentThread().join();
    }

    private static void hang(Path marker) {
        try {
            Files.writeString(marker, "stopped");
            Thread.sleep(Long.MAX_VALUE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
