package io.delayq.bench;

/** What every workload needs: the Redis under test, the harness' probe of it, and the sizes. */
record Workbench(String redisUrl, RedisProbe probe, Sizes sizes, long seed) {
}
