package io.delayq.chaos.report;

import io.delayq.chaos.load.Producer;
import io.delayq.chaos.recorder.Execution;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the chaos figures count, on hand-made records (no Redis, no workers). */
class RunAnalysisTest {
    private static final long LEASE = 1_000;

    @Test
    void countsLostDuplicatesRepeatedAttemptsAndEarlyExecutions() {
        Map<String, Producer.Acked> acked = Map.of(
                "on-time", new Producer.Acked(1_000, 500, false),
                "redelivered", new Producer.Acked(1_000, 500, false),
                "repeated", new Producer.Acked(1_000, 500, false),
                "early", new Producer.Acked(1_000, 500, false),
                "lost", new Producer.Acked(1_000, 500, false));
        List<Execution> runs = List.of(
                new Execution("on-time", 1, 1_000, 1_001, 1_010, 1),
                new Execution("redelivered", 1, 1_000, 1_000, 1_010, 1),
                new Execution("redelivered", 2, 1_000, 2_500, 2_510, 2),
                new Execution("repeated", 1, 1_000, 1_002, 1_010, 1),
                new Execution("repeated", 1, 1_000, 1_500, 1_510, 2),
                // claimed with the right score but before the due time its producer set: a score that moved
                new Execution("early", 1, 900, 950, 960, 1));

        Figures f = RunAnalysis.analyse(acked, runs, LEASE, -1);

        assertThat(f.lost()).isEqualTo(1);
        assertThat(f.lostSample()).containsExactly("lost");
        assertThat(f.duplicatedIds()).isEqualTo(2);
        assertThat(f.repeatedAttempts()).isEqualTo(1);
        assertThat(f.early()).isEqualTo(1);
    }

    @Test
    void theDueRuleDecidesForRescheduledTasksAndAnUnknownDueIsNotEarly() {
        Map<String, Producer.Acked> acked = Map.of("moved", new Producer.Acked(5_000, 500, false));
        List<Execution> runs = List.of(new Execution("moved", 1, 2_000, 2_001, 2_010, 1));

        assertThat(RunAnalysis.analyse(acked, runs, LEASE, -1).early()).as("by the enqueue's due time alone").isEqualTo(1);
        assertThat(RunAnalysis.analyse(acked, runs, LEASE, -1, (id, at) -> 2_000).early()).as("rescheduled to 2,000").isZero();
        assertThat(RunAnalysis.analyse(acked, runs, LEASE, -1, (id, at) -> Long.MIN_VALUE).early()).isZero();
        assertThat(RunAnalysis.analyse(acked, List.of(new Execution("moved", 1, 2_500, 2_001, 2_010, 1)), LEASE, -1, (id, at) -> 2_000)
                .early()).as("started before the score it was claimed with").isEqualTo(1);
    }
}
