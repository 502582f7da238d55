package io.delayq.chaos.recorder;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The chaos suite's business logic: every execution appends one line to this worker process's own
 * file and forces it to disk before the handler returns, so the record exists before the worker
 * acks. The file lives outside Redis: whatever Redis forgets, the record of what ran survives.
 * <p>
 * Line: {@code id attempt dueAt startMillis endMillis pid}. The task's payload may ask for work
 * time ({@code work=<ms>}), which keeps tasks in flight when a worker is killed or Redis paused.
 * Configured by {@code CHAOS_RECORD_FILE}. Lives in its own tiny jar on the packaged worker's
 * classpath, found through {@code META-INF/services}; it needs nothing but the JDK and the worker.
 */
public final class DeliveryRecorder implements TaskHandler {
    private final Object lock = new Object();
    private final long pid = ProcessHandle.current().pid();
    private FileChannel file;

    @Override
    public void start(HandlerContext context) throws IOException {
        String path = System.getenv("CHAOS_RECORD_FILE");
        if (path == null || path.isBlank()) {
            throw new IllegalStateException("CHAOS_RECORD_FILE must name the file this worker records executions in");
        }
        file = FileChannel.open(Path.of(path), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    @Override
    public void handle(Task task) throws Exception {
        long start = System.currentTimeMillis();
        long work = workMillis(task.payload());
        if (work > 0) {
            Thread.sleep(work);
        }
        long end = System.currentTimeMillis();
        byte[] line = (task.id() + ' ' + task.attempt() + ' ' + task.dueAt() + ' ' + start + ' ' + end + ' ' + pid + '\n')
                .getBytes(StandardCharsets.UTF_8);
        synchronized (lock) {
            ByteBuffer buf = ByteBuffer.wrap(line);
            while (buf.hasRemaining()) {
                file.write(buf);
            }
            // durable before the ack: a kill -9 (or a power cut) right after this cannot lose the record
            file.force(false);
        }
    }

    static long workMillis(String payload) {
        if (payload == null || !payload.startsWith("work=")) {
            return 0;
        }
        try {
            return Long.parseLong(payload.substring(5).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void stop() throws IOException {
        synchronized (lock) {
            if (file != null) {
                file.close();
            }
        }
    }
}
