package io.delayq.images.podman;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Container rlimits within what this process may set: runc cannot raise a limit above the hard
 * limit its parent has (20000 open files here), and a container needs explicit ones because the
 * runtime's defaults are refused. The caps are far above what a worker JVM uses (about 30 threads
 * idle, one more per running handler, and a few dozen files).
 */
record HostLimits(long openFiles, long processes) {
    private static final long MAX_OPEN_FILES = 65536;
    private static final long MAX_PROCESSES = 16384;

    static HostLimits read() {
        try {
            long files = MAX_OPEN_FILES;
            long procs = MAX_PROCESSES;
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    files = Math.min(files, hard(line));
                } else if (line.startsWith("Max processes")) {
                    procs = Math.min(procs, hard(line));
                }
            }
            return new HostLimits(files, procs);
        } catch (IOException e) {
            return new HostLimits(1024, 1000);
        }
    }

    /** The second number of a line such as {@code Max open files  20000  20000  files}. */
    private static long hard(String line) {
        String[] parts = line.substring(line.indexOf("  ")).trim().split("\\s+");
        return "unlimited".equals(parts[1]) ? Long.MAX_VALUE : Long.parseLong(parts[1]);
    }
}
