package io.delayq.cli.bulk;

import io.delayq.cli.CliEnvironment;

/** Who started a bulk job from the CLI: {@code cli:<user>@<host>}. */
final class Who {
    private Who() {
    }

    static String cli(CliEnvironment env) {
        String user = env.first("USER", "LOGNAME");
        String host = env.first("HOSTNAME");
        return "cli:" + (user == null ? "unknown" : user) + (host == null ? "" : "@" + host);
    }
}
