package io.delayq.testing;

import io.delayq.redis.RedisEndpoint;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Redis Cluster of {@code primaries} redis-server processes per test class, with one cluster
 * connection. Register with {@code @RegisterExtension static RedisClusterExtension cluster = new RedisClusterExtension(3);}.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {
    private final int primaries;
    private LocalRedisCluster cluster;
    private RedisEndpoint endpoint;

    public RedisClusterExtension(int primaries) {
        this.primaries = primaries;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = LocalRedisCluster.start(primaries);
        endpoint = RedisEndpoint.connect(cluster.url());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (endpoint != null) {
            endpoint.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    public LocalRedisCluster cluster() {
        return cluster;
    }

    /** The cluster connection (Lettuce's cluster client: commands go to the node of their slot). */
    public RedisEndpoint endpoint() {
        return endpoint;
    }
}
