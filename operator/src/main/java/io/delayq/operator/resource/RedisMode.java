package io.delayq.operator.resource;

/** Redis topology, as the URL scheme says it. */
public enum RedisMode {
    Standalone, Sentinel, Cluster;

    public static RedisMode ofUrl(String url) {
        if (url.matches("^rediss?-cluster://.*")) {
            return Cluster;
        }
        return url.matches("^rediss?-sentinel://.*") ? Sentinel : Standalone;
    }
}
