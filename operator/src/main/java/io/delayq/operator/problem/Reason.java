package io.delayq.operator.problem;

/** Every kind of {@link Problem}, with the CamelCase reason Kubernetes shows for it. */
public enum Reason {
    INVALID_SPEC("InvalidSpec"),
    SECRET_MISSING("SecretMissing"),
    SECRET_KEY_MISSING("SecretKeyMissing"),
    SECRET_KEY_INVALID("SecretKeyInvalid"),
    REDIS_UNAVAILABLE("RedisUnavailable"),
    UNSAFE_EVICTION_POLICY("UnsafeEvictionPolicy"),
    /** A warning, not a fault: the queue works, but a Redis restart can lose tasks. */
    REDIS_PERSISTENCE_OFF("RedisPersistenceOff"),
    SHARD_COUNT_MISMATCH("ShardCountMismatch"),
    WORKER_CRASH_LOOP("WorkerCrashLoop"),
    INVALID_SCHEDULE("InvalidSchedule"),
    /** spec.protocol asks for 2 of a queue on protocol 3. */
    PROTOCOL_DOWNGRADE_REFUSED("ProtocolDowngradeRefused"),
    /** The upgrade to protocol 3 failed (and is retried): a queue it refuses, or Redis went away. */
    PROTOCOL_UPGRADE_FAILED("ProtocolUpgradeFailed");

    private final String text;

    Reason(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }
}
