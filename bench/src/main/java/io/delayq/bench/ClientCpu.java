package io.delayq.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/** CPU time of the systems' own processes, so the notes can say whether Redis or the client was the limit. */
final class ClientCpu {
    private ClientCpu() {
    }

    static long thisProcessNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return processNanos(ProcessHandle.current().pid());
    }

    static long processNanos(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }
}
