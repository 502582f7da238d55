package io.delayq.queue;

import io.delayq.InvalidInputException;

import java.util.regex.Pattern;

/** A queue name: a lower-case DNS label of at most 40 characters, so it fits Kubernetes names too. */
public final class QueueName {
    public static final int MAX_LENGTH = 40;
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private QueueName() {
    }

    public static boolean isValid(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX_LENGTH && LABEL.matcher(name).matches();
    }

    public static String require(String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidInputException("queue", "must not be empty");
        }
        if (name.length() > MAX_LENGTH) {
            throw new InvalidInputException("queue", "must be at most " + MAX_LENGTH + " characters, got " + name.length());
        }
        if (!LABEL.matcher(name).matches()) {
            throw new InvalidInputException("queue",
                    "must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or digit), got '" + name + "'");
        }
        return name;
    }
}
