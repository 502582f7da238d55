package io.delayq.bench.console;

import io.delayq.client.DelayQueueClient;
import io.delayq.console.Console;
import io.delayq.console.ConsoleSettings;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.task.TaskSpec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How fast the console's pages answer with a million waiting tasks, beside the same pages over a
 * queue of 1,000 measured in the same run. Starts its own redis-server and console; prints figures
 * (server-side JSON of each page as the browser fetches it, over loopback HTTP), passes or fails nothing.
 * <pre>./bench/console.sh [--tasks 1000000] [--shards 16] [--requests 40]</pre>
 */
public final class ConsoleBench {
    private ConsoleBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>(Map.of("--tasks", "1000000", "--shards", "16", "--requests", "40"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            opt.put(args[i], args[i + 1]);
        }
        int tasks = Integer.parseInt(opt.get("--tasks"));
        int shards = Integer.parseInt(opt.get("--shards"));
        int requests = Integer.parseInt(opt.get("--requests"));
        try (LocalRedisServer redis = LocalRedisServer.start("--save", "", "--appendonly", "no");
             RedisEndpoint raw = RedisEndpoint.connect(redis.url())) {
            System.out.printf("redis-server %s at %s; filling 'big' with %,d tasks and 'small' with 1,000 (%d shards each)…%n",
                    redis.origin(), redis.url(), tasks, shards);
            long t0 = System.nanoTime();
            fill(raw, "big", shards, tasks);
            fill(raw, "small", shards, 1_000);
            System.out.printf("filled in %.1f s; Redis used_memory %s%n", (System.nanoTime() - t0) / 1e9, memory(raw));
            try (Console console = Console.start(new ConsoleSettings(redis.url(), "127.0.0.1", 0, null, List.of(),
                    Duration.ofSeconds(10), Duration.ofHours(1)))) {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                String base = console.url() + "api/";
                long mid = Instant.now().plus(Duration.ofHours(12)).toEpochMilli();
                System.out.printf("%n%-46s %12s %12s %12s | %12s %12s%n", "page (JSON API call)", "big p50 ms", "p99 ms", "max ms",
                        "small p50 ms", "p99 ms");
                for (String[] page : pages(mid)) {
                    double[] big = measure(http, base + page[1].replace("{q}", "big"), requests);
                    double[] small = measure(http, base + page[1].replace("{q}", "small"), requests);
                    System.out.printf("%-46s %12.2f %12.2f %12.2f | %12.2f %12.2f%n", page[0], big[0], big[1], big[2], small[0], small[1]);
                }
                System.out.println("\n(each figure: " + requests + " sequential requests after 5 warm-up ones; loopback HTTP; "
                        + Runtime.getRuntime().availableProcessors() + " cores shared with Redis)");
            }
        }
    }

    private static List<String[]> pages(long mid) {
        return List.of(
                new String[]{"all queues (overview)", "overview"},
                new String[]{"one queue (per-shard table)", "queues/{q}"},
                new String[]{"scheduled, first page of 50", "queues/{q}/tasks?state=scheduled&limit=50"},
                new String[]{"scheduled, window around +12h, 50", "queues/{q}/tasks?state=scheduled&from=" + mid + "&limit=50"},
                new String[]{"scheduled, id prefix matching 1 (per page)", "queues/{q}/tasks?state=scheduled&prefix=task-4242420&limit=50"},
                new String[]{"scheduled, id prefix matching none (per page)", "queues/{q}/tasks?state=scheduled&prefix=nothing-&limit=50"},
                new String[]{"one task (inspect)", "queues/{q}/tasks/task-500"});
    }

    private static void fill(RedisEndpoint raw, String queue, int shards, int n) {
        try (DelayQueueClient c = DelayQueueClient.builder().redis(raw).queue(queue).shards(shards).timeout(Duration.ofMinutes(2)).build()) {
            Instant start = Instant.now().plus(Duration.ofMinutes(5));
            List<TaskSpec> batch = new ArrayList<>(20_000);
            for (int i = 0; i < n; i++) {
                // due times spread over 24 h, payloads of ~40 bytes
                batch.add(TaskSpec.of("task-" + i).at(start.plusMillis((long) i * 86_400_000L / n)).payload("{\"order\":" + i + ",\"action\":\"cancel\"}"));
                if (batch.size() == 20_000) {
                    c.enqueueAll(batch);
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                c.enqueueAll(batch);
            }
        }
    }

    private static double[] measure(HttpClient http, String url, int n) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url)).build();
        for (int i = 0; i < 5; i++) {
            check(http.send(req, HttpResponse.BodyHandlers.ofString()), url);
        }
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            check(http.send(req, HttpResponse.BodyHandlers.ofString()), url);
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        return new double[]{ms[n / 2], ms[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)], ms[n - 1]};
    }

    private static void check(HttpResponse<String> r, String url) {
        if (r.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    private static String memory(RedisEndpoint raw) {
        String info = Replies.await(raw.commands().info("memory"), Duration.ofSeconds(5));
        return info.lines().filter(l -> l.startsWith("used_memory_human:")).findFirst().map(l -> l.substring(18)).orElse("?");
    }
}
