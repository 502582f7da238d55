package io.delayq.operator;

import java.time.Duration;

/**
 * How a replica holds the leader Lease (leader election only): a leader that has not renewed the Lease
 * within {@code renewDeadline} stops leading; a follower may take a Lease that nobody renewed for
 * {@code leaseDuration}; both retry every {@code retryPeriod}. {@link OperatorSettings#fromEnv} checks
 * the rules Fabric8's elector enforces, so a bad value fails with the variable's name at start-up.
 */
public record LeaderElectionTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /** The SDK's defaults (JOSDK 5.2): a new leader within about 15 s of the old one's last renewal. */
    public static final LeaderElectionTiming DEFAULT = new LeaderElectionTiming(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

    /**
     * Fabric8 waits up to {@code retryPeriod × (1 + 1.2)} between attempts (jitter), and refuses a
     * renew deadline that is not longer than that.
     */
    static final double RETRY_JITTER = 1.2;
}
