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

    private static final String KAFKA_HOST = "(\\[[0-9a-fA-F:.]+\\]|[^\\s:,\\[\\]]+)";
    private static final String KAFKA_PORT = "([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])";
    private static final String KAFKA_SERVER = KAFKA_HOST + ":" + KAFKA_PORT;
    /**
     * {@code host:port[,host:port...]} as the Kafka delivery reads DELAYQ_KAFKA_BOOTSTRAP_SERVERS: a host name, an IPv4
     * address or a bracketed IPv6 one, and a port of 1 to 65535.
     */
    public static final String KAFKA_BOOTSTRAP_SERVERS = "^\\s*" + KAFKA_SERVER + "(\\s*,\\s*" + KAFKA_SERVER + ")*\\s*$";
    /** Kafka's own rule for topic names ('.' and '..' are refused by a rule of their own). */
    public static final String KAFKA_TOPIC = "^[a-zA-Z0-9._-]{1,249}$";
    /** What the outbox relay connects to. */
    public static final String POSTGRESQL_JDBC_URL = "^jdbc:postgresql:.+$";

    private Patterns() {
    }
}
