package io.delayq.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the figures were measured on: the machine is shared, so its load is printed beside them. */
final class MeasuredOn {
    private MeasuredOn() {
    }

    /** The 1, 5 and 15 minute load averages, e.g. "1.52 1.20 0.90". */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }

    static String describe() {
        return String.format("%d cores (%s), %s %s, JDK %s", Runtime.getRuntime().availableProcessors(), cpuModel(),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("java.version"));
    }
}
