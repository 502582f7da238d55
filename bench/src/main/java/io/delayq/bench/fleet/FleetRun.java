package io.delayq.bench.fleet;

/** What one autoscaling mode did on one scenario: the tasks' firing lag and what the fleet cost. */
public record FleetRun(String scenario, String mode, LagStats lag, double replicaSeconds, int peakReplicas, int scalings) {

    public boolean keeps(long targetP99Ms) {
        return lag.p99() <= targetP99Ms;
    }
}
