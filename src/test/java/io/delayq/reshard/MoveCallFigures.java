package io.delayq.reshard;

import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a test: prints how long the mover's single script calls take with a large waiting backlog (default
 * 1,000,000 tasks, 16 -> 64 shards), from Redis's SLOWLOG (every call of 200 µs or more is logged), beside
 * the enqueue calls of the same run as a baseline. Run:
 * {@code java -cp <core test classpath> io.delayq.reshard.MoveCallFigures [tasks] [from] [to] [batch]}.
 */
public final class MoveCallFigures {
    private MoveCallFigures() {
    }

    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int from = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int to = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        int batch = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no");
             RedisEndpoint admin = RedisEndpoint.connect(server.url());
             DelayQueueClient client = DelayQueueClient.builder().redis(server.url()).queue("bench").shards(from).build()) {
            var redis = admin.commands();
            List<TaskSpec> chunk = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                chunk.add(TaskSpec.of("order-" + i).after(Duration.ofHours(1 + i % 24)).payload("{\"order\":" + i + "}"));
                if (chunk.size() == 5000 || i == tasks - 1) {
                    client.enqueueAll(chunk, DuplicatePolicy.REJECT);
                    chunk.clear();
                }
            }
            redis.configSet("slowlog-log-slower-than", "200").get();
            redis.configSet("slowlog-max-len", "1000000").get();
            redis.slowlogReset().get();
            redis.configResetstat().get();
            long started = System.nanoTime();
            Mover.Result r = new Mover(Mover.Params.of(client.protocol(), to, p -> { }).withBatch(batch)).run();
            double seconds = (System.nanoTime() - started) / 1e9;
            List<Object> log = redis.slowlogGet(1_000_000).get();
            java.util.Map<String, String> names = new java.util.HashMap<>();
            for (io.delayq.script.LuaScript script : io.delayq.script.LuaScript.values()) {
                names.put(script.sha(), script.fileName());
            }
            List<long[]> calls = new ArrayList<>();
            List<String> what = new ArrayList<>();
            long over1ms = 0;
            for (Object e : log) {
                List<?> entry = (List<?>) e;
                long micros = ((Number) entry.get(2)).longValue();
                List<?> argv = (List<?>) entry.get(3);
                String name = argv.size() > 1 ? names.getOrDefault(String.valueOf(argv.get(1)), String.valueOf(argv.get(0))) : String.valueOf(argv.get(0));
                if (String.valueOf(argv.get(0)).equalsIgnoreCase("eval")) {
                    name = "EVAL (first load of a script: compile)";
                }
                if (micros > 1000) {
                    over1ms++;
                }
                calls.add(new long[] {micros, what.size()});
                what.add(name);
            }
            calls.sort((a, b) -> Long.compare(b[0], a[0]));
            long longest = calls.isEmpty() ? 0 : calls.get(0)[0];
            StringBuilder top = new StringBuilder();
            for (int i = 0; i < Math.min(8, calls.size()); i++) {
                top.append(String.format("%s%.2f ms %s", i == 0 ? "" : ", ", calls.get(i)[0] / 1000.0, what.get((int) calls.get(i)[1])));
            }
            String longestCommand = top.toString();
            // per command: the longest call and how many took over 2 ms; plain commands (HSET, ZCARD, SET) do no
            // scripted work, so their longest shows how much the machine itself stalled Redis in this run
            java.util.Map<String, long[]> per = new java.util.TreeMap<>();
            for (long[] c : calls) {
                long[] agg = per.computeIfAbsent(what.get((int) c[1]), k -> new long[3]);
                agg[0]++;
                agg[1] = Math.max(agg[1], c[0]);
                if (c[0] > 2000) {
                    agg[2]++;
                }
            }
            per.forEach((name, agg) -> System.out.printf("  %-40s logged %6d, longest %7.2f ms, over 2 ms %d%n", name, agg[0], agg[1] / 1000.0, agg[2]));
            String stats = redis.info("commandstats").get();
            System.out.printf("move %d waiting tasks %d -> %d shards, batch %d: %d moved in %.1f s (%d passes)%n",
                    tasks, from, to, batch, r.moved(), seconds, r.passes());
            System.out.printf("longest single call: %.2f ms; calls over 1 ms: %d; calls of 200 us or more: %d%nslowest: %s%n",
                    longest / 1000.0, over1ms, log.size(), longestCommand);
            stats.lines().filter(l -> l.startsWith("cmdstat_evalsha") || l.startsWith("cmdstat_eval:")).forEach(System.out::println);
        }
    }
}
