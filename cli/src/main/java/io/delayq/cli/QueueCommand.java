package io.delayq.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * A command that works on one queue: it checks its input first (so bad input fails with exit 2
 * even when Redis is down), then opens the queue, runs, and closes the connection.
 */
public abstract class QueueCommand implements Callable<Integer> {
    @Mixin(name = ConnectionOptions.MIXIN_NAME)
    protected ConnectionOptions connection;

    @Spec
    protected CommandSpec spec;

    /** Checks the command's own input before anything touches Redis. */
    protected void validate() throws Exception {
    }

    /** Whether this command may create a queue that does not exist yet (with --shards). */
    protected boolean createsQueue() {
        return false;
    }

    protected abstract int run(QueueConnection queue) throws Exception;

    @Override
    public final Integer call() throws Exception {
        validate();
        try (QueueConnection queue = QueueConnection.open(ConnectionOptions.resolve(spec), createsQueue())) {
            int code = run(queue);
            out().flush();
            err().flush();
            return code;
        }
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    protected CliEnvironment environment() {
        return DelayqCommand.environment(spec);
    }
}
