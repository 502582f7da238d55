package io.delayq.cli.pause;

import io.delayq.cli.CliEnvironment;

/** The author recorded with a pause: {@code cli:<user>}. */
final class Who {
    private Who() {
    }

    static String cli(CliEnvironment env) {
        String user = env.first("USER", "LOGNAME");
        return "cli:" + (user == null ? "unknown" : user);
    }
}
