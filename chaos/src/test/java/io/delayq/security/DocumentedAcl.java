package io.delayq.security;

import io.delayq.redis.RedisEndpoint;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code ACL SETUSER} lines exactly as {@code docs/security.md} prints them, so the tests run
 * with the documented users and the documentation cannot drift from what was tested.
 */
final class DocumentedAcl {
    static final Path DOC = Path.of(System.getProperty("delayq.repo.root", ".."), "docs", "security.md");

    private DocumentedAcl() {
    }

    /** The documented line that creates {@code user}, with its password placeholder filled in. */
    static String line(String user, String password) throws IOException {
        List<String> lines = Files.readAllLines(DOC).stream().map(String::strip)
                .filter(l -> l.startsWith("ACL SETUSER " + user + " ")).toList();
        if (lines.size() != 1) {
            throw new IllegalStateException(DOC + " must hold exactly one 'ACL SETUSER " + user + " …' line, found " + lines.size());
        }
        return lines.get(0).replaceAll(">[A-Z_]+_PASSWORD", ">" + password);
    }

    /**
     * The documented line of {@code user} for queues still on protocol 2: without what docs/security.md says to remove
     * there (the line after {@code # Queues still on protocol 2: remove from the <role>'s line}).
     */
    static String lineForProtocol2(String user, String role, String password) throws IOException {
        List<String> removed = Arrays.asList(addition("# Queues still on protocol 2: remove from the " + role + "'s line").split("\\s+"));
        String line = line(user, password);
        List<String> words = Arrays.stream(line.split("\\s+")).filter(w -> !removed.contains(w)).toList();
        if (words.size() != line.split("\\s+").length - removed.size()) {
            throw new IllegalStateException(DOC + ": what protocol 2 removes from the " + role + "'s line is not all on it: " + removed);
        }
        return String.join(" ", words);
    }

    /** The permissions docs/security.md says to append to each user's line on a Redis Cluster. */
    static String clusterAddition() throws IOException {
        return addition("# Redis Cluster: append to each user's line");
    }

    /** The permissions docs/security.md lists on the line after the comment line {@code marker}. */
    static String addition(String marker) throws IOException {
        List<String> lines = Files.readAllLines(DOC).stream().map(String::strip).toList();
        int at = lines.indexOf(marker);
        if (at < 0 || at + 1 >= lines.size()) {
            throw new IllegalStateException(DOC + " must hold the line '" + marker + "' followed by the permissions");
        }
        return lines.get(at + 1);
    }

    /** A worker's environment for {@code queue} as the documented worker user (the operator fills these from a Secret). */
    static java.util.Map<String, String> workerEnv(String redisUrl, String queue, int shards, String password) {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("DELAYQ_REDIS_URL", redisUrl);
        // the operator fills these two from a Secret: they override the URL's credentials
        env.put("DELAYQ_REDIS_USERNAME", "delayq-worker");
        env.put("DELAYQ_REDIS_PASSWORD", password);
        env.put("DELAYQ_QUEUE", queue);
        env.put("DELAYQ_SHARDS", String.valueOf(shards));
        env.put("DELAYQ_HTTP_PORT", "0");
        env.put("DELAYQ_POLL_INTERVAL", "100ms");
        return env;
    }

    /** Runs an {@code ACL SETUSER …} line (as redis-cli would) on an admin connection. */
    static void apply(RedisEndpoint admin, String line) throws Exception {
        List<String> words = Arrays.asList(line.split("\\s+"));
        if (!words.get(0).equalsIgnoreCase("ACL")) {
            throw new IllegalArgumentException("not an ACL command: " + line);
        }
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        words.subList(1, words.size()).forEach(args::add);
        admin.commands().dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args).get(5, TimeUnit.SECONDS);
    }
}
