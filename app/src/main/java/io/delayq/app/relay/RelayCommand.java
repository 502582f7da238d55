package io.delayq.app.relay;

import io.delayq.DelayQueueException;
import io.delayq.app.worker.WorkerCommand;
import io.delayq.lifecycle.StopSignal;
import io.delayq.redis.RedisEndpoint;
import io.delayq.settings.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * {@code delayq outbox-relay}: only the outbox relay (and its backstop), from the worker's {@code DELAYQ_*} variables,
 * until SIGTERM or SIGINT. A configuration error exits 2 with one line naming the variable; a Redis that cannot be
 * reached (or a taken HTTP port) exits 3. The database may be down at start: the relay retries it, as in a worker.
 */
public final class RelayCommand {
    private static final Logger LOG = LoggerFactory.getLogger(RelayCommand.class);

    private RelayCommand() {
    }

    public static int run(Map<String, String> env) {
        // caught from the start, as the worker's: a SIGTERM while the relay starts stops it gracefully once started
        StopSignal stopSignal = StopSignal.install();
        RelayProcessConfig config;
        try {
            config = RelayProcessConfig.fromEnv(env);
        } catch (ConfigException e) {
            System.err.println("delayq outbox-relay: invalid configuration: " + e.getMessage());
            return 2;
        }
        RelayProcess process;
        try {
            process = RelayProcess.start(config);
        } catch (io.delayq.InvalidInputException e) {
            System.err.println("delayq outbox-relay: invalid configuration: " + e.getMessage());
            return 2;
        } catch (DelayQueueException | io.lettuce.core.RedisException | java.io.UncheckedIOException e) {
            System.err.println("delayq outbox-relay: cannot start: " + e.getMessage());
            return 3;
        }
        LOG.info("outbox relay started: {} -> {} (queue {}), probes on :{}", config.relay().jdbcUrl(),
                RedisEndpoint.redact(config.relay().redisUrl()), config.queue(), process.httpPort());
        WorkerCommand.awaitSignal(stopSignal);
        process.close();
        return 0;
    }
}
