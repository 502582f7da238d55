package io.delayq.chaos.report;

import java.util.List;

/**
 * What one chaos run measured, from the producer's acknowledgements and the recorders' files.
 *
 * @param enqueued              tasks Redis acknowledged to the producer (these must all run)
 * @param executions            handler executions recorded
 * @param lost                  acknowledged tasks never executed
 * @param duplicatedIds         tasks executed more than once
 * @param duplicateExecutions   executions beyond the first of each task
 * @param repeatedAttempts      executions that repeat an (id, attempt) already recorded: a re-delivery
 *                              that did not come from a lease expiry (must be 0 where Redis keeps its writes)
 * @param readdedRepeats        repeats of attempt 1 on tasks a retried enqueue added again after they had run
 *                              (the producer's own at-least-once: its first call landed, its answer did not)
 * @param overlappingPairs      pairs of executions of one task that ran at the same time
 * @param concurrentWithoutExpiry overlapping pairs where the later one could not have followed a lease
 *                              expiry (not a higher attempt, or started before due + lease): must be 0
 * @param lateBeyondLease       tasks first executed later than due + lease
 * @param early                 executions that started before the task's due time in force (the one it was claimed
 *                              with, and the one its producer set or a reschedule answered): must be 0
 * @param unexpected            executed ids the producer never saw acknowledged (its call failed, the write landed)
 */
public record Figures(int enqueued, int executions, int lost, List<String> lostSample, long lossWindowMillis,
                      int duplicatedIds, int duplicateExecutions, int repeatedAttempts, int readdedRepeats,
                      int overlappingPairs, int concurrentWithoutExpiry, int lateBeyondLease,
                      long lagP50Millis, long lagP99Millis, long lagMaxMillis, int unexpected, int early) {
}
