package io.delayq.operator.status;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CrashingWorkersTest {
    static final String NO_HANDLER = "delayq worker: invalid configuration: DELAYQ_DELIVERY: is handler but no TaskHandler is on the classpath";

    static Pod crashing(String name, int exitCode, String message) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addNewContainerStatus().withName("worker").withRestartCount(4)
                .withNewState().withNewWaiting().withReason("CrashLoopBackOff").withMessage("back-off 1m20s restarting failed container").endWaiting().endState()
                .withNewLastState().withNewTerminated().withExitCode(exitCode).withReason("Error").withMessage(message).endTerminated().endLastState()
                .endContainerStatus().endStatus().build();
    }

    static Pod running(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addNewContainerStatus().withName("worker").withReady(true)
                .withNewState().withNewRunning().endRunning().endState().endContainerStatus().endStatus().build();
    }

    @Test
    void aCrashLoopingPodIsAProblemCarryingItsExitCodeAndLastMessage() {
        assertThat(CrashingWorkers.of(List.of(running("orders-0-3-a"), crashing("orders-4-7-b", 2, NO_HANDLER + "\n"))))
                .containsExactly(new Problem("WorkerCrashLoop", "worker pod orders-4-7-b is in CrashLoopBackOff: exit 2: " + NO_HANDLER));
    }

    @Test
    void podsFailingAlikeMakeOneProblem() {
        List<Problem> problems = CrashingWorkers.of(List.of(crashing("a", 2, NO_HANDLER), crashing("b", 2, NO_HANDLER), crashing("c", 3, "redis down")));

        assertThat(problems).extracting(Problem::message).containsExactly(
                "2 worker pods (a, b) are in CrashLoopBackOff: exit 2: " + NO_HANDLER,
                "worker pod c is in CrashLoopBackOff: exit 3: redis down");
    }

    @Test
    void aLongLogKeepsItsEndWhereTheWorkersReasonIs() {
        String trace = "x".repeat(2000) + "\n" + NO_HANDLER;

        assertThat(CrashingWorkers.of(List.of(crashing("a", 2, trace)))).singleElement()
                .satisfies(p -> assertThat(p.message()).endsWith(NO_HANDLER).hasSizeLessThan(CrashingWorkers.MAX_MESSAGE + 100));
    }

    @Test
    void healthyOrStartingPodsAreNoProblem() {
        Pod pending = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase("Pending").endStatus().build();
        assertThat(CrashingWorkers.of(List.of(running("r"), pending))).isEmpty();
    }
}
