package io.delayq.operator.autoscaling;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The pod start-up read from pods as the cluster reports them: creation to Ready, the slowest that counts. */
class PodStartupTest {

    private static Pod pod(String created, String readyStatus, String readyAt, int restarts, boolean deleting) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("w-" + created).withCreationTimestamp(created)
                .withDeletionTimestamp(deleting ? "2030-01-01T01:00:00Z" : null).endMetadata()
                .withNewStatus()
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(created).endCondition()
                .addNewCondition().withType("Ready").withStatus(readyStatus).withLastTransitionTime(readyAt).endCondition()
                .addNewContainerStatus().withName("worker").withRestartCount(restarts).endContainerStatus()
                .endStatus();
        return b.build();
    }

    @Test
    void theSlowestReadyPodSetsIt() {
        List<Pod> pods = List.of(
                pod("2030-01-01T00:00:00Z", "True", "2030-01-01T00:00:12Z", 0, false),
                pod("2030-01-01T00:00:01Z", "True", "2030-01-01T00:00:31Z", 0, false),
                pod("2030-01-01T00:00:02Z", "True", "2030-01-01T00:00:09Z", 0, false));
        assertThat(PodStartup.longest(pods)).contains(Duration.ofSeconds(30));
    }

    @Test
    void podsNotReadyRestartedOrBeingDeletedDoNotCount() {
        List<Pod> pods = List.of(
                pod("2030-01-01T00:00:00Z", "False", "2030-01-01T00:05:00Z", 0, false),
                pod("2030-01-01T00:00:00Z", "True", "2030-01-01T00:04:00Z", 2, false),
                pod("2030-01-01T00:00:00Z", "True", "2030-01-01T00:03:00Z", 0, true),
                pod("2030-01-01T00:00:00Z", "True", "2030-01-01T00:00:20Z", 0, false));
        assertThat(PodStartup.longest(pods)).contains(Duration.ofSeconds(20));
    }

    @Test
    void readinessThatCameBackLongAfterCreationIsAFlapNotAStart() {
        assertThat(PodStartup.longest(List.of(pod("2030-01-01T00:00:00Z", "True", "2030-01-01T03:00:00Z", 0, false)))).isEmpty();
    }

    @Test
    void noPodsOrPodsWithoutStatusMeasureNothing() {
        assertThat(PodStartup.longest(List.of())).isEmpty();
        assertThat(PodStartup.longest(List.of(new PodBuilder().withNewMetadata().withName("bare").endMetadata().build()))).isEmpty();
    }
}
