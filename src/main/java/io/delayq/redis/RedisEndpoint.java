package io.delayq.redis;

import io.delayq.InvalidInputException;
import io.delayq.settings.WorkerSettings;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.MaintNotificationsConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One Redis deployment (standalone, Sentinel or Cluster) and the single shared connection that
 * every queue operation multiplexes over. URLs:
 * <ul>
 *   <li>{@code redis://[user:password@]host:port[/db]}, {@code rediss://…} for TLS</li>
 *   <li>{@code redis-sentinel://[password@]host:port[,host:port]/db#master}</li>
 *   <li>{@code redis-cluster://[user:password@]host:port[,host:port…]}, {@code rediss-cluster://…} for TLS</li>
 * </ul>
 */
public final class RedisEndpoint implements AutoCloseable {
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private final String description;
    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterAsyncCommands<String, String> commands;
    private final boolean ownsResources;
    private final ClientResources resources;

    private RedisEndpoint(String description, AbstractRedisClient client, StatefulConnection<String, String> connection,
                          RedisClusterAsyncCommands<String, String> commands, ClientResources resources, boolean ownsResources) {
        this.description = description;
        this.client = client;
        this.connection = connection;
        this.commands = commands;
        this.resources = resources;
        this.ownsResources = ownsResources;
    }

    public static RedisEndpoint connect(String url) {
        return connect(url, null, DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * @param resources shared Lettuce resources (for example with a Micrometer latency recorder),
     *                  or {@code null} to create private ones
     */
    public static RedisEndpoint connect(String url, ClientResources resources, Duration timeout) {
        return connect(url, resources, timeout, null);
    }

    /**
     * @param caFile a PEM CA bundle to trust for {@code rediss://} instead of the process-wide one (the
     *               operator talks to one Redis per DelayQueue, each with its own CA), or {@code null}
     */
    public static RedisEndpoint connect(String url, ClientResources resources, Duration timeout, Path caFile) {
        return connect(url, resources, timeout, caFile, RedisCredentialsException.Fix.DELAYQ_ENVIRONMENT);
    }

    /**
     * @param credentialsFix what a person sets when Redis refuses the connection for its credentials (a missing or
     *                       wrong password): the connect then fails with a {@link RedisCredentialsException} saying so
     */
    public static RedisEndpoint connect(String url, ClientResources resources, Duration timeout, Path caFile,
                                        RedisCredentialsException.Fix credentialsFix) {
        if (url == null || url.isBlank()) {
            throw new InvalidInputException("redis", "a Redis URL is required, e.g. redis://localhost:6379");
        }
        boolean own = resources == null;
        ClientResources res = own ? DefaultClientResources.create() : resources;
        SocketOptions socket = SocketOptions.builder().connectTimeout(Duration.ofSeconds(5)).keepAlive(true).build();
        try {
            if (url.startsWith("redis-cluster://") || url.startsWith("rediss-cluster://")) {
                List<RedisURI> seeds = clusterSeeds(url, timeout);
                RedisClusterClient cluster = RedisClusterClient.create(res, seeds);
                ClusterClientOptions.Builder options = ClusterClientOptions.builder()
                        .socketOptions(socket)
                        .sslOptions(tlsOptions(url, caFile))
                        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                .enablePeriodicRefresh(Duration.ofSeconds(5))
                                .enableAllAdaptiveRefreshTriggers()
                                .build());
                options.maintNotificationsConfig(MaintNotificationsConfig.disabled()); // see parse(): no CLIENT extras on connect
                cluster.setOptions(options.build());
                StatefulRedisClusterConnection<String, String> conn = cluster.connect(Utf8Codec.UTF8);
                return new RedisEndpoint(redact(url), cluster, conn, conn.async(), res, own);
            }
            RedisURI uri = parse(url);
            uri.setTimeout(timeout);
            RedisClient single = RedisClient.create(res, uri);
            single.setOptions(ClientOptions.builder().socketOptions(socket).sslOptions(tlsOptions(url, caFile))
                    .maintNotificationsConfig(MaintNotificationsConfig.disabled()).build());
            StatefulRedisConnection<String, String> conn = connectThroughHandshakeRaces(single);
            return new RedisEndpoint(redact(url), single, conn, conn.async(), res, own);
        } catch (RuntimeException e) {
            if (own) {
                res.shutdown();
            }
            throw RedisCredentialsException.explain(e, credentialsFix);
        }
    }

    private static final int HANDSHAKE_ATTEMPTS = 3;

    /**
     * Lettuce can lose the server's answer to the handshake when it closes the channel after a refused
     * HELLO (a wrong password): the connect then fails with "Connection closed prematurely" instead of
     * Redis's WRONGPASS. Connecting again gives the true reason (or a connection, if the close was a
     * network blip), so a start fails with what Redis said.
     */
    private static StatefulRedisConnection<String, String> connectThroughHandshakeRaces(RedisClient single) {
        for (int attempt = 1; ; attempt++) {
            try {
                return single.connect(Utf8Codec.UTF8);
            } catch (RedisConnectionException e) {
                if (attempt == HANDSHAKE_ATTEMPTS || !closedDuringHandshake(e)) {
                    throw e;
                }
            }
        }
    }

    private static boolean closedDuringHandshake(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("Connection closed prematurely")) {
                return true;
            }
        }
        return false;
    }

    static RedisURI parse(String url) {
        try {
            RedisURI uri = RedisURI.create(url);
            // No CLIENT SETINFO on connect (Lettuce sends it only for a non-empty name/version), and no CLIENT
            // MAINT_NOTIFICATIONS either (ClientOptions below): both are fire-and-forget extras that Redis 6.2, and
            // every version that knows them, refuses to the least-privilege ACL users of docs/security.md, logging
            // each refusal in ACL LOG; 7.0 does not know them, so no single ACL rule could allow them everywhere.
            uri.setLibraryName("");
            uri.setLibraryVersion("");
            return uri;
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("redis", "not a valid Redis URL (" + e.getMessage() + "): " + redact(url));
        }
    }

    static List<RedisURI> clusterSeeds(String url, Duration timeout) {
        boolean tls = url.startsWith("rediss-cluster://");
        String rest = url.substring(url.indexOf("://") + 3);
        String userInfo = "";
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            userInfo = rest.substring(0, at + 1);
            rest = rest.substring(at + 1);
        }
        int slash = rest.indexOf('/');
        String hosts = slash >= 0 ? rest.substring(0, slash) : rest;
        List<RedisURI> seeds = new ArrayList<>();
        for (String host : hosts.split(",")) {
            if (host.isBlank()) {
                continue;
            }
            RedisURI seed = parse((tls ? "rediss://" : "redis://") + userInfo + host.trim());
            seed.setTimeout(timeout);
            seeds.add(seed);
        }
        if (seeds.isEmpty()) {
            throw new InvalidInputException("redis", "a cluster URL needs at least one host:port: " + redact(url));
        }
        return seeds;
    }

    /** The URL without its password, safe for logs, status and errors. */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        return url.replaceAll("://([^:/@]*):[^@/]*@", "://$1:***@").replaceAll("://([^:/@]+)@", "://***@");
    }

    /**
     * TLS trust for {@code rediss://}: a PEM CA bundle given to {@code connect}, else one named by the system property {@code delayq.redis.tls.ca}
     * or the environment variable {@code DELAYQ_REDIS_TLS_CA} (a private CA, e.g. a mounted Secret) is the only
     * trust; without either, the JVM's trust store decides. The server's name is verified either way.
     */
    static SslOptions tlsOptions(String url, Path caFile) {
        String ca = caFile != null ? caFile.toString() : System.getProperty("delayq.redis.tls.ca", System.getenv(WorkerSettings.REDIS_TLS_CA.name()));
        if (!url.startsWith("rediss") || ca == null || ca.isBlank()) {
            return SslOptions.create();
        }
        File file = new File(ca.trim());
        if (!file.isFile() || !file.canRead()) {
            throw new InvalidInputException(WorkerSettings.REDIS_TLS_CA.name(), "must name a readable PEM file of CA certificates, got " + ca);
        }
        return SslOptions.builder().jdkSslProvider().trustManager(file).build();
    }

    /**
     * The commands of the connection to the primary that serves {@code key}: the shared connection on a
     * standalone Redis, that primary's node connection in a Cluster. Commands whose meaning depends on
     * the connection (WAIT counts the writes of the connection it is sent on) must go there.
     */
    @SuppressWarnings("unchecked")
    public CompletionStage<RedisClusterAsyncCommands<String, String>> commandsOnPrimaryOf(String key) {
        if (!(connection instanceof StatefulRedisClusterConnection<?, ?> c)) {
            return CompletableFuture.completedFuture(commands);
        }
        StatefulRedisClusterConnection<String, String> cluster = (StatefulRedisClusterConnection<String, String>) c;
        RedisClusterNode primary = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        if (primary == null) {
            return CompletableFuture.failedFuture(new RedisException("no primary known for the slot of " + key + " (cluster topology not loaded)"));
        }
        return cluster.getConnectionAsync(primary.getNodeId()).thenApply(StatefulRedisConnection::async);
    }

    public RedisClusterAsyncCommands<String, String> commands() {
        return commands;
    }

    public boolean isCluster() {
        return client instanceof RedisClusterClient;
    }

    public boolean isOpen() {
        return connection.isOpen();
    }

    public ClientResources resources() {
        return resources;
    }

    /** A separate connection for blocking commands, so they never hold up the shared one. */
    public StatefulConnection<String, String> newDedicatedConnection() {
        if (client instanceof RedisClusterClient cluster) {
            return cluster.connect(Utf8Codec.UTF8);
        }
        return ((RedisClient) client).connect(Utf8Codec.UTF8);
    }

    @Override
    public String toString() {
        return description;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        if (ownsResources) {
            resources.shutdown();
        }
    }
}
