package io.delayq.operator.status;

/**
 * Something wrong that only shows at run time: the reason becomes the Degraded condition's reason
 * and the Event's reason, the message is for a person and never holds a secret value.
 */
public record Problem(String reason, String message) {
    public static final String INVALID_SPEC = "InvalidSpec";
    public static final String SECRET_MISSING = "SecretMissing";
    public static final String SECRET_KEY_MISSING = "SecretKeyMissing";
    public static final String SECRET_KEY_INVALID = "SecretKeyInvalid";
    public static final String REDIS_UNAVAILABLE = "RedisUnavailable";
    public static final String UNSAFE_EVICTION_POLICY = "UnsafeEvictionPolicy";
    public static final String SHARD_COUNT_MISMATCH = "ShardCountMismatch";
    public static final String WORKER_CRASH_LOOP = "WorkerCrashLoop";
    public static final String INVALID_SCHEDULE = "InvalidSchedule";
}
