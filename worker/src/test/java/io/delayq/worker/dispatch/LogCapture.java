package io.delayq.worker.dispatch;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The worker's log during one test: slf4j-simple writes every line to {@code System.err} as it is at
 * that moment, so a tee on {@code System.err} sees what an operator would see, still printed as usual.
 */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback {
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream original;

    @Override
    public void beforeEach(ExtensionContext context) {
        original = System.err;
        PrintStream shown = original;
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                shown.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (captured) {
                    captured.write(b, off, len);
                }
                shown.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setErr(original);
    }

    /** The complete lines logged so far that contain {@code text}. */
    public List<String> lines(String text) {
        String all;
        synchronized (captured) {
            all = captured.toString(StandardCharsets.UTF_8);
        }
        int end = all.lastIndexOf('\n');
        if (end < 0) {
            return List.of();
        }
        return Arrays.stream(all.substring(0, end).split("\n")).filter(l -> l.contains(text)).toList();
    }
}
