package io.delayq.operator.status;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.redis.RedisCredentials;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Worker pods whose container is in CrashLoopBackOff, as Problems carrying the container's last message (the
 * worker's one-line reason, e.g. a handler it cannot load: the worker container's termination message falls back
 * to the end of its log). Pods failing with the same message make one Problem, so the condition stays readable.
 * <p>
 * Whoever can read the DelayQueue reads the message, not only whoever can read the pod's logs: so only the last
 * line is kept (the worker's start-up error is one line; a stack trace or earlier log lines are not copied), it is
 * bounded, and credentials are masked (URL user-info passwords, {@code NAME=value} pairs whose name says secret,
 * and the Redis password the operator knows from the credentials Secret).
 */
public final class CrashingWorkers {
    static final int MAX_MESSAGE = 600;

    /** scheme://user:password@ anywhere in a text (the user is kept: it tells which account failed). */
    private static final Pattern URL_PASSWORD = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\\s]*):[^@/\\s]*@");
    /** PASSWORD=..., DELAYQ_REDIS_PASSWORD: ..., api_token='...': the value, up to a space, quote, comma or parenthesis. */
    private static final Pattern SECRET_VALUE = Pattern.compile(
            "(?i)([A-Z0-9_.-]*(?:PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIALS?|API_?KEY|PRIVATE_?KEY)[A-Z0-9_.-]*\\s*[=:]\\s*['\"]?)[^\\s'\",;()]+");

    private CrashingWorkers() {
    }

    public static List<Problem> of(List<Pod> pods) {
        return of(pods, RedisCredentials.NONE);
    }

    /** @param credentials the DelayQueue's Redis credentials, whose password is masked wherever a message holds it */
    public static List<Problem> of(List<Pod> pods, RedisCredentials credentials) {
        Map<String, List<String>> podsByMessage = new LinkedHashMap<>();
        for (Pod pod : pods) {
            if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
                continue;
            }
            for (ContainerStatus c : pod.getStatus().getContainerStatuses()) {
                if (crashLooping(c)) {
                    podsByMessage.computeIfAbsent(lastMessage(c, credentials), m -> new ArrayList<>()).add(pod.getMetadata().getName());
                }
            }
        }
        List<Problem> problems = new ArrayList<>();
        podsByMessage.forEach((message, names) -> problems.add(new Problem(Reason.WORKER_CRASH_LOOP,
                (names.size() == 1 ? "worker pod " + names.get(0) + " is" : names.size() + " worker pods (" + String.join(", ", names) + ") are")
                        + " in CrashLoopBackOff: " + message)));
        return problems;
    }

    private static boolean crashLooping(ContainerStatus c) {
        return c.getState() != null && c.getState().getWaiting() != null
                && "CrashLoopBackOff".equals(c.getState().getWaiting().getReason());
    }

    /** "exit 2: <termination message>", or what the kubelet says when the container left no message. */
    static String lastMessage(ContainerStatus c, RedisCredentials credentials) {
        ContainerStateTerminated last = c.getLastState() == null ? null : c.getLastState().getTerminated();
        if (last == null) {
            return Objects.requireNonNullElse(c.getState().getWaiting().getMessage(), "no termination message");
        }
        String text = last.getMessage() == null || last.getMessage().isBlank()
                ? Objects.requireNonNullElse(last.getReason(), "no termination message")
                : bounded(redact(credentials.scrub(lastLine(last.getMessage()))));
        return "exit " + last.getExitCode() + ": " + text;
    }

    /** The worker's reason is its last non-blank line; anything before it (log lines, a trace) stays in the pod. */
    static String lastLine(String message) {
        String[] lines = message.strip().split("\\R");
        return lines[lines.length - 1].strip();
    }

    /** Cut after masking, so a cut never leaves half a password the patterns no longer recognise. */
    private static String bounded(String line) {
        return line.length() <= MAX_MESSAGE ? line : line.substring(0, MAX_MESSAGE) + "…";
    }

    /** Masks credentials in a text bound for the DelayQueue's status and Events. */
    static String redact(String text) {
        return SECRET_VALUE.matcher(URL_PASSWORD.matcher(text).replaceAll("$1:***@")).replaceAll("$1***");
    }
}
