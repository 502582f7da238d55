package io.delayq.operator.redis;

import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisCredentialsException;
import io.delayq.redis.RedisEndpoint;
import io.lettuce.core.resource.ClientResources;

import java.time.Duration;

/**
 * A connection to a DelayQueue's Redis with the queue's protocol on it, and the CA file it trusts (deleted
 * on close). The reader keeps one per DelayQueue between checks; a long job (the mover) opens its own.
 */
public final class ProbeConnection implements AutoCloseable {
    private final RedisEndpoint endpoint;
    private final QueueProtocol protocol;
    private final CaFile caFile;

    private ProbeConnection(RedisEndpoint endpoint, QueueProtocol protocol, CaFile caFile) {
        this.endpoint = endpoint;
        this.protocol = protocol;
        this.caFile = caFile;
    }

    /** The operator reads the credentials from the DelayQueue's Secret, never from its own environment. */
    static final RedisCredentialsException.Fix CREDENTIALS_FIX = new RedisCredentialsException.Fix(
            "reference a Secret holding it in spec.redis.credentialsSecret",
            "check the password (and user name) in the Secret named by spec.redis.credentialsSecret");

    /** @param tlsCa PEM CA certificate(s) to trust for a {@code rediss} URL, or null */
    public static ProbeConnection open(String url, RedisCredentials credentials, String tlsCa, String queue, int shards,
                                       ClientResources resources, Duration timeout) {
        // Only a TLS connection reads the CA; a plain-text URL past the CRD's check gets no file.
        CaFile caFile = tlsCa != null && url.startsWith("rediss") ? CaFile.write(tlsCa) : null;
        try {
            RedisEndpoint endpoint = RedisEndpoint.connect(credentials.applyTo(url), resources, timeout,
                    caFile == null ? null : caFile.path(), CREDENTIALS_FIX);
            return new ProbeConnection(endpoint, new QueueProtocol(endpoint, queue, shards), caFile);
        } catch (RuntimeException e) {
            if (caFile != null) {
                caFile.close();
            }
            throw e;
        }
    }

    public RedisEndpoint endpoint() {
        return endpoint;
    }

    public QueueProtocol protocol() {
        return protocol;
    }

    public boolean isOpen() {
        return endpoint.isOpen();
    }

    @Override
    public void close() {
        try {
            endpoint.close();
        } finally {
            if (caFile != null) {
                caFile.close();
            }
        }
    }
}
