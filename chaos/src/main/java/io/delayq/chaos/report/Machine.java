package io.delayq.chaos.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A one-line description of the machine a run happened on, for the report. */
public final class Machine {
    private Machine() {
    }

    public static String describe() {
        Runtime rt = Runtime.getRuntime();
        String memory = "";
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            memory = String.format(", %.0f GiB RAM", os.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        }
        return String.format("%s: %d CPU cores%s, %s %s (%s), Java %s, %s", host(), rt.availableProcessors(), memory,
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"),
                System.getProperty("java.version"), redisVersion());
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown host";
        }
    }

    static String redisVersion() {
        String explicit = System.getenv("DELAYQ_REDIS_SERVER");
        String binary = explicit != null && !explicit.isBlank() ? explicit : onPath("redis-server");
        if (binary == null) {
            return "Redis 6.2 (embedded-redis binary)";
        }
        try {
            Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(5, TimeUnit.SECONDS);
            // "Redis server v=7.0.15 sha=... malloc=jemalloc-5.3.0 bits=64 build=..."
            int v = out.indexOf("v=");
            return v < 0 ? out : "Redis " + out.substring(v + 2).split(" ")[0];
        } catch (IOException e) {
            return "Redis (version unknown)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Redis (version unknown)";
        }
    }

    private static String onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(d, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
