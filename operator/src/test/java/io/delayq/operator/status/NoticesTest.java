package io.delayq.operator.status;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.RedisStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.fabric8.kubernetes.api.model.Condition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NoticesTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final Problem DOWN = new Problem(Reason.REDIS_UNAVAILABLE, "cannot read the queue: refused");
    private static final Problem PERSISTENCE = new Problem(Reason.REDIS_PERSISTENCE_OFF, "Redis persistence is off");

    private static DelayQueueStatus status(Problem problem, boolean paused, int replicas, List<String> warnings) {
        DelayQueueStatus s = new DelayQueueStatus();
        List<Condition> c = new ArrayList<>();
        c.add(problem == null ? Conditions.next(List.of(), "Degraded", false, "AsExpected", "", 1, NOW)
                : Conditions.next(List.of(), "Degraded", true, problem.reasonText(), problem.message(), 1, NOW));
        c.add(Conditions.next(List.of(), "Paused", paused, paused ? "Suspended" : "Running", "", 1, NOW));
        s.setConditions(c);
        WorkerDeploymentStatus w = new WorkerDeploymentStatus();
        w.setName("orders-worker-0-7");
        w.setReplicas(replicas);
        s.setWorkerDeployments(List.of(w));
        RedisStatus r = new RedisStatus();
        r.setWarnings(warnings);
        s.setRedis(r);
        return s;
    }

    @Test
    void aNewProblemIsOneWarningAndALastingOneIsNone() {
        List<Notice> first = Notices.between(null, status(DOWN, false, 1, null), List.of(DOWN), List.of());
        List<Notice> again = Notices.between(status(DOWN, false, 1, null), status(DOWN, false, 1, null), List.of(DOWN), List.of());

        assertThat(first).singleElement().isEqualTo(Notice.warning("RedisUnavailable", "cannot read the queue: refused"));
        assertThat(again).isEmpty();
    }

    @Test
    void recoveryIsANormalEvent() {
        List<Notice> notices = Notices.between(status(DOWN, false, 1, null), status(null, false, 1, null), List.of(), List.of());

        assertThat(notices).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo("Normal");
            assertThat(n.reason()).isEqualTo("Recovered");
        });
    }

    @Test
    void noDisruptionBudgetIsOneWarningWhenItAppears() {
        DelayQueueStatus without = status(null, false, 1, null);
        without.getConditions().add(DisruptionBudgetCondition.notServed(List.of(), 1, NOW));
        DelayQueueStatus stillWithout = status(null, false, 1, null);
        stillWithout.getConditions().add(DisruptionBudgetCondition.notServed(without.getConditions(), 1, NOW.plusSeconds(30)));

        assertThat(Notices.between(null, without, List.of(), List.of()))
                .containsExactly(Notice.warning("PolicyV1NotServed", DisruptionBudgetCondition.MESSAGE));
        assertThat(Notices.between(without, stillWithout, List.of(), List.of())).isEmpty();
        assertThat(stillWithout.getConditions().get(2).getLastTransitionTime()).isEqualTo(NOW.toString());
    }

    @Test
    void aWarningIsAnnouncedOnce() {
        assertThat(Notices.between(null, status(null, false, 1, List.of(PERSISTENCE.message())), List.of(), List.of(PERSISTENCE)))
                .containsExactly(Notice.warning("RedisPersistenceOff", "Redis persistence is off"));
        assertThat(Notices.between(status(null, false, 1, List.of(PERSISTENCE.message())),
                status(null, false, 1, List.of(PERSISTENCE.message())), List.of(), List.of(PERSISTENCE))).isEmpty();
    }

    @Test
    void suspendAndResumeAndScalingAreNormalEvents() {
        assertThat(Notices.between(status(null, false, 2, null), status(null, true, 0, null), List.of(), List.of()))
                .extracting(Notice::reason).containsExactly("Suspended");
        assertThat(Notices.between(status(null, true, 0, null), status(null, false, 2, null), List.of(), List.of()))
                .extracting(Notice::reason).containsExactly("Resumed");
        assertThat(Notices.between(status(null, false, 2, null), status(null, false, 5, null), List.of(), List.of()))
                .singleElement().satisfies(n -> assertThat(n.message()).contains("orders-worker-0-7 from 2 to 5"));
    }

    @Test
    void aForecastScalingStepNamesTheWindowAndFigures() {
        DelayQueueStatus after = status(null, false, 4, null);
        after.getWorkerDeployments().get(0).setScaleReason("60000 tasks due within 5m (200/s) at 50/s per replica need 4");

        assertThat(Notices.between(status(null, false, 1, null), after, List.of(), List.of())).singleElement().satisfies(n -> {
            assertThat(n.reason()).isEqualTo("ScaledWorkers");
            assertThat(n.type()).isEqualTo("Normal");
            assertThat(n.message()).isEqualTo("scaled orders-worker-0-7 from 1 to 4 replicas: "
                    + "60000 tasks due within 5m (200/s) at 50/s per replica need 4");
        });
    }
}
