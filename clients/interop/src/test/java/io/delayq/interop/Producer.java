package io.delayq.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A producer library driven through its interop driver ({@code src/test/resources/drivers}): the Python
 * library (sync and asyncio) in the virtualenv {@code .ci/install-python-client.sh} builds, the Node library
 * as {@code .ci/install-node-client.sh} installs it into a project ({@code npm install --install-links}), the Go library
 * through the driver binary {@code .ci/install-go-client.sh} builds with it. Where a library is not installed the test
 * is skipped with the command that installs it; under CI ({@code CI=true}) it fails instead, so that CI can
 * never pass without running them.
 */
public record Producer(String name, List<String> command, Map<String, Object> configExtras, Path needs, String install) {

    static Path clientsDir() {
        return Path.of(System.getProperty("delayq.clients.dir", "..")).toAbsolutePath().normalize();
    }

    static Producer python() {
        Path python = Path.of(System.getProperty("delayq.clients.python", clientsDir().resolve("python/.venv/bin/python").toString()));
        return new Producer("python", List.of(python.toString(), Drivers.path("driver.py").toString()), Map.of(), python,
                "bash .ci/install-python-client.sh");
    }

    static Producer pythonAsyncio() {
        Producer sync = python();
        return new Producer("python-asyncio", sync.command(), Map.of("asyncio", true), sync.needs(), sync.install());
    }

    static Producer node() {
        // the package as npm installs it for a user (.ci/install-node-client.sh makes that project)
        Path lib = Path.of(System.getProperty("delayq.clients.node.lib", clientsDir().resolve("node/.consumer/node_modules/delayq").toString()));
        return new Producer("node", List.of("node", Drivers.path("driver.js").toString(), lib.toString()), Map.of(),
                lib.resolve("lib/scripts.json"), "bash .ci/install-node-client.sh");
    }

    static Producer go() {
        // the driver program built with the library (clients/go/cmd/delayq-interop)
        Path driver = Path.of(System.getProperty("delayq.clients.go.driver", clientsDir().resolve("go/bin/delayq-interop").toString()));
        return new Producer("go", List.of(driver.toString()), Map.of(), driver, "bash .ci/install-go-client.sh");
    }

    static List<Producer> all() {
        return List.of(python(), pythonAsyncio(), node(), go());
    }

    /** The libraries that speak Redis Cluster URLs (all of them). */
    static List<Producer> withCluster() {
        return all();
    }

    /** Skips (locally) or fails (in CI) when the library is not installed. */
    void requireInstalled() {
        boolean ready = Files.exists(needs);
        String reason = "the " + name + " producer library is not installed (" + needs + " missing): run " + install;
        if (!ready && "true".equals(System.getenv("CI"))) {
            fail(reason + " (CI must run the interop tests)");
        }
        assumeTrue(ready, reason);
    }

    ProducerProcess connect(String url, String queue, int shards) {
        return connect(url, queue, shards, Map.of());
    }

    /** Starts the driver and connects the library; {@link ProducerProcess#connectError()} holds a refusal. */
    ProducerProcess connect(String url, String queue, int shards, Map<String, Object> options) {
        return connect(url, queue, shards, options, Map.of());
    }

    /** As {@link #connect(String, String, int, Map)}, with more configuration for the driver (e.g. a database to use). */
    ProducerProcess connect(String url, String queue, int shards, Map<String, Object> options, Map<String, Object> extras) {
        requireInstalled();
        Map<String, Object> config = new java.util.HashMap<>(configExtras);
        config.putAll(extras);
        config.put("url", url);
        config.put("queue", queue);
        config.put("shards", shards);
        config.put("options", options);
        return ProducerProcess.start(name, new ArrayList<>(command), config);
    }

    @Override
    public String toString() {
        return name;
    }
}
