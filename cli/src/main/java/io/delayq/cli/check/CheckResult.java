package io.delayq.cli.check;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One line of {@code check}: what was checked, the verdict, what was found and, unless it passed, how to fix it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CheckResult(String name, Status status, String message, String hint) {
    public enum Status { PASS, WARN, FAIL }

    static CheckResult pass(String name, String message) {
        return new CheckResult(name, Status.PASS, message, null);
    }

    static CheckResult warn(String name, String message, String hint) {
        return new CheckResult(name, Status.WARN, message, hint);
    }

    static CheckResult fail(String name, String message, String hint) {
        return new CheckResult(name, Status.FAIL, message, hint);
    }
}
