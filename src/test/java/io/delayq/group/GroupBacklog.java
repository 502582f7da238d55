package io.delayq.group;

import io.delayq.task.TaskSpec;
import io.delayq.testing.TestQueue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Due tasks of one group for the claim tests: ids {@code <group>-<i>}, due a minute ago in id order; "plain" = no group. */
final class GroupBacklog {
    private GroupBacklog() {
    }

    static void due(TestQueue q, String group, int n) {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TaskSpec t = TaskSpec.of(group + "-" + i).at(Instant.now().minusSeconds(60).plusMillis(i));
            tasks.add(group.equals("plain") ? t : t.group(group));
        }
        q.client().enqueueAll(tasks);
    }
}
