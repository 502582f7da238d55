package io.delayq.worker.ops;

import io.delayq.redis.RedisEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether Redis answered the last command; logs one line when it is lost and one when it is back, and
 * counts every failed call (exported as {@code delayq_redis_failures_total}).
 */
public final class RedisHealth {
    private static final Logger LOG = LoggerFactory.getLogger(RedisHealth.class);
    private final String where;
    private volatile boolean up = true;
    private volatile boolean scriptsLoaded;
    private final AtomicLong failures = new AtomicLong();

    public RedisHealth(RedisEndpoint redis) {
        this.where = redis.toString();
    }

    public void ok() {
        if (!up) {
            up = true;
            LOG.info("Redis is back at {}", where);
        }
    }

    public void failed(Throwable e) {
        failures.incrementAndGet();
        if (up) {
            up = false;
            LOG.warn("Redis lost at {}: {}", where, e.toString());
        }
    }

    public void scriptsLoaded() {
        scriptsLoaded = true;
    }

    public boolean ready() {
        return up && scriptsLoaded;
    }

    public boolean up() {
        return up;
    }

    /** Calls that failed without an answer about the data (time-outs, lost connections) since start. */
    public long failures() {
        return failures.get();
    }
}
