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
            long started = System.nanoTime();
            Mover.Result r = new Mover(Mover.Params.of(client.protocol(), to, p -> { }).withBatch(batch)).run();
            double seconds = (System.nanoTime() - started) / 1e9;
            List<Object> log = redis.slowlogGet(1_000_000).get();
            long longest = 0;
            long over1ms = 0;
            String longestCommand = "";
            for (Object e : log) {
                List<?> entry = (List<?>) e;
                long micros = ((Number) entry.get(2)).longValue();
                if (micros > 1000) {
                    over1ms++;
                }
                if (micros > longest) {
                    longest = micros;
                    longestCommand = String.valueOf(((List<?>) entry.get(3)).get(0));
                }
            }
            String stats = redis.info("commandstats").get();
            System.out.printf("move %d waiting tasks %d -> %d shards, batch %d: %d moved in %.1f s (%d passes)%n",
                    tasks, from, to, batch, r.moved(), seconds, r.passes());
            System.out.printf("longest single call: %.2f ms (%s); calls over 1 ms: %d; calls of 200 us or more: %d%n",
                    longest / 1000.0, longestCommand, over1ms, log.size());
            stats.lines().filter(l -> l.startsWith("cmdstat_evalsha") || l.startsWith("cmdstat_eval:")).forEach(System.out::println);
        }
    }
}
