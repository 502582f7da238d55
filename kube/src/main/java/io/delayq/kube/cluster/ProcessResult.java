package io.delayq.kube.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What a finished command printed and its exit code. */
public record ProcessResult(int exitCode, String output) {

    static ProcessResult run(List<String> command, Map<String, String> env) {
        return run(command, env, null);
    }

    static ProcessResult run(List<String> command, Map<String, String> env, java.nio.file.Path workingDir) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            if (workingDir != null) {
                builder.directory(workingDir.toFile());
            }
            builder.environment().putAll(env);
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            return new ProcessResult(process.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public ProcessResult requireSuccess() {
        if (exitCode != 0) {
            throw new IllegalStateException("exit code " + exitCode + ":\n" + output);
        }
        return this;
    }
}
