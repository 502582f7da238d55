package io.delayq.outbox.relay;

import io.delayq.outbox.testing.PostgresExtension;
import io.delayq.testing.RedisServerExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Relays started by a test on the class's PostgreSQL and Redis, closed after it. */
final class RunningRelays implements AfterEachCallback {
    private final PostgresExtension pg;
    private final RedisServerExtension redis;
    private final List<OutboxRelay> started = new ArrayList<>();

    RunningRelays(PostgresExtension pg, RedisServerExtension redis) {
        this.pg = pg;
        this.redis = redis;
    }

    /** What every test's relay starts from: short waits so failures show quickly. */
    RelayConfig.Builder config() {
        return RelayConfig.builder().jdbcUrl(pg.server().jdbcUrl()).user("delayq").redisUrl(redis.url())
                .pollInterval(Duration.ofMillis(200)).retryDelay(Duration.ofMillis(100)).redisTimeout(Duration.ofSeconds(1));
    }

    OutboxRelay start() {
        return start(config().build(), RelayHook.NONE);
    }

    OutboxRelay start(RelayConfig config, RelayHook hook) {
        OutboxRelay relay = OutboxRelay.start(config, new SimpleMeterRegistry(), hook);
        started.add(relay);
        return relay;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(OutboxRelay::close);
        started.clear();
    }
}
