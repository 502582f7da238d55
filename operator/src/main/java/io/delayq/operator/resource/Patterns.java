package io.delayq.operator.resource;

/** Regular expressions shared by the CRD schema (RE2 syntax) and the operator. */
public final class Patterns {
    /** A lower-case DNS label: what the core accepts as a queue name, and what Kubernetes accepts in names. */
    public static final String DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
    /** The Redis URL schemes that {@code RedisEndpoint} understands. */
    public static final String REDIS_URL = "^(redis|rediss|redis-sentinel|rediss-sentinel|redis-cluster|rediss-cluster)://.+$";
    public static final String HTTP_URL = "^https?://.+$";
    /** Keys of a Secret, as Kubernetes accepts them. */
    public static final String SECRET_KEY = "^[-._a-zA-Z0-9]+$";
    /** Environment variable names, as Kubernetes accepts them. */
    public static final String ENV_NAME = "^[-._a-zA-Z][-._a-zA-Z0-9]*$";

    private Patterns() {
    }
}
