package io.delayq.operator.status;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Worker pods whose container is in CrashLoopBackOff, as Problems carrying the container's last message (the
 * worker's one-line reason, e.g. a handler it cannot load: the worker container's termination message falls back
 * to the end of its log). Pods failing with the same message make one Problem, so the condition stays readable.
 */
public final class CrashingWorkers {
    static final int MAX_MESSAGE = 600;

    private CrashingWorkers() {
    }

    public static List<Problem> of(List<Pod> pods) {
        Map<String, List<String>> podsByMessage = new LinkedHashMap<>();
        for (Pod pod : pods) {
            if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
                continue;
            }
            for (ContainerStatus c : pod.getStatus().getContainerStatuses()) {
                if (crashLooping(c)) {
                    podsByMessage.computeIfAbsent(lastMessage(c), m -> new ArrayList<>()).add(pod.getMetadata().getName());
                }
            }
        }
        List<Problem> problems = new ArrayList<>();
        podsByMessage.forEach((message, names) -> problems.add(new Problem(Problem.WORKER_CRASH_LOOP,
                (names.size() == 1 ? "worker pod " + names.get(0) + " is" : names.size() + " worker pods (" + String.join(", ", names) + ") are")
                        + " in CrashLoopBackOff: " + message)));
        return problems;
    }

    private static boolean crashLooping(ContainerStatus c) {
        return c.getState() != null && c.getState().getWaiting() != null
                && "CrashLoopBackOff".equals(c.getState().getWaiting().getReason());
    }

    /** "exit 2: <termination message>", or what the kubelet says when the container left no message. */
    static String lastMessage(ContainerStatus c) {
        ContainerStateTerminated last = c.getLastState() == null ? null : c.getLastState().getTerminated();
        if (last == null) {
            return Objects.requireNonNullElse(c.getState().getWaiting().getMessage(), "no termination message");
        }
        String text = last.getMessage() == null || last.getMessage().isBlank()
                ? Objects.requireNonNullElse(last.getReason(), "no termination message")
                : lastLines(last.getMessage());
        return "exit " + last.getExitCode() + ": " + text;
    }

    /** The worker's reason is its last line; a JVM stack trace before it would drown it, so keep the end. */
    private static String lastLines(String message) {
        String oneLine = message.strip().replace('\n', ' ').replaceAll("\\s+", " ");
        return oneLine.length() <= MAX_MESSAGE ? oneLine : "…" + oneLine.substring(oneLine.length() - MAX_MESSAGE);
    }
}
