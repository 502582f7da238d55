package io.delayq.testing;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * One real {@code redis-server} process per test class on a free loopback port, flushed before
 * every test. Register with {@code @RegisterExtension static RedisServerExtension redis = new RedisServerExtension();}.
 */
public final class RedisServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private final List<String> args;
    private LocalRedisServer server;
    private RedisEndpoint admin;

    public RedisServerExtension(String... extraArgs) {
        this.args = List.of(extraArgs);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = LocalRedisServer.start(LocalRedisServer.freePort(), args);
        admin = RedisEndpoint.connect(server.url());
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!server.isAlive()) {
            server.restart();
        }
        admin.commands().flushall().get();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (admin != null) {
            admin.close();
        }
        if (server != null) {
            server.close();
        }
    }

    public LocalRedisServer server() {
        return server;
    }

    public String url() {
        return server.url();
    }

    /** A connection for the test's own checks (a plain Lettuce async API). */
    public RedisEndpoint admin() {
        return admin;
    }
}
