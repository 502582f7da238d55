package io.delayq.operator.status;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.redis.RedisCredentials;
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
                .containsExactly(new Problem(Reason.WORKER_CRASH_LOOP, "worker pod orders-4-7-b is in CrashLoopBackOff: exit 2: " + NO_HANDLER));
    }

    @Test
    void podsFailingAlikeMakeOneProblem() {
        List<Problem> problems = CrashingWorkers.of(List.of(crashing("a", 2, NO_HANDLER), crashing("b", 2, NO_HANDLER), crashing("c", 3, "redis down")));

        assertThat(problems).extracting(Problem::message).containsExactly(
                "2 worker pods (a, b) are in CrashLoopBackOff: exit 2: " + NO_HANDLER,
                "worker pod c is in CrashLoopBackOff: exit 3: redis down");
    }

    @Test
    void aLongLogKeepsOnlyItsLastLineWhereTheWorkersReasonIs() {
        String trace = "x".repeat(2000) + "\n" + NO_HANDLER;

        assertThat(CrashingWorkers.of(List.of(crashing("a", 2, trace)))).singleElement()
                .satisfies(p -> assertThat(p.message()).endsWith("exit 2: " + NO_HANDLER).doesNotContain("xx"));
    }

    @Test
    void aLongLastLineIsCutToABoundedLength() {
        String line = "delayq worker: " + "y".repeat(5000);

        assertThat(CrashingWorkers.of(List.of(crashing("a", 2, line)))).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("exit 2: delayq worker: yyy").endsWith("…")
                        .hasSizeLessThan(CrashingWorkers.MAX_MESSAGE + 100));
    }

    @Test
    void secretsInTheLogNeverReachTheCondition() {
        // FallbackToLogsOnError: the kubelet copies the log's tail, here earlier lines that dumped the environment.
        String log = """
                starting delayq worker
                env DELAYQ_REDIS_PASSWORD=hunter2 API_TOKEN: tok-123 other=visible
                connecting to redis://app:s3cr3t@redis.prod:6379/0
                delayq worker: cannot reach Redis at redis://app:s3cr3t@redis.prod:6379/0 (password=s3cr3t): WRONGPASS
                """;

        assertThat(CrashingWorkers.of(List.of(crashing("a", 1, log)))).singleElement().satisfies(p -> assertThat(p.message())
                .isEqualTo("worker pod a is in CrashLoopBackOff: exit 1: delayq worker: cannot reach Redis at "
                        + "redis://app:***@redis.prod:6379/0 (password=***): WRONGPASS")
                .doesNotContain("s3cr3t", "hunter2", "tok-123", "starting", "connecting"));
    }

    @Test
    void theRedisPasswordFromTheCredentialsSecretIsMaskedWhereverItAppears() {
        String line = "delayq worker: AUTH failed for user app with Pa55word-x at redis.prod:6379";

        assertThat(CrashingWorkers.of(List.of(crashing("a", 1, line)), new RedisCredentials("app", "Pa55word-x"))).singleElement()
                .satisfies(p -> assertThat(p.message()).endsWith("AUTH failed for user app with *** at redis.prod:6379"));
    }

    @Test
    void secretPatternsAreMaskedAndOtherTextIsKept() {
        assertThat(CrashingWorkers.redact("rediss://:pw@h:6380 redis://h:6379 secret_key='abc' TOKEN=t1,next ratio=3"))
                .isEqualTo("rediss://:***@h:6380 redis://h:6379 secret_key='***' TOKEN=***,next ratio=3");
    }

    @Test
    void healthyOrStartingPodsAreNoProblem() {
        Pod pending = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewStatus().withPhase("Pending").endStatus().build();
        assertThat(CrashingWorkers.of(List.of(running("r"), pending))).isEmpty();
    }
}
