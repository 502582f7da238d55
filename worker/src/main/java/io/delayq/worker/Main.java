package io.delayq.worker;

import io.delayq.worker.demo.DemoCommand;

import java.util.Arrays;

/**
 * The {@code delayq} executable. With no arguments (the container's default) or {@code worker}, it
 * runs a worker configured by environment variables; {@code demo} runs the local demonstration.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("worker")) {
            return WorkerCommand.run(System.getenv());
        }
        if (args[0].equals("demo")) {
            return DemoCommand.run(Arrays.copyOfRange(args, 1, args.length), System.getenv());
        }
        System.err.println("usage: delayq [worker | demo [--once]]");
        return 2;
    }
}
