package io.delayq.app.demo;

import io.delayq.handler.PermanentFailure;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The demo's business logic, printed so a newcomer sees what happens: orders are cancelled when
 * unpaid; "payment-gateway" orders fail twice (retry with backoff, then succeed) and
 * "corrupt" orders never succeed (dead-lettered after the last attempt).
 */
final class DemoHandler implements TaskHandler {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
    private final PrintStream out;
    private final Consumer<String> settled;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    DemoHandler(PrintStream out, Consumer<String> settled) {
        this.out = out;
        this.settled = settled;
    }

    @Override
    public void handle(Task task) throws Exception {
        long now = System.currentTimeMillis();
        String late = (now - task.dueAt()) + " ms after its due time";
        String head = TIME.format(Instant.ofEpochMilli(now)) + "  " + task.id() + " (attempt " + task.attempt() + ") fired " + late;
        String payload = task.payload() == null ? "" : task.payload();
        if (payload.contains("corrupt")) {
            out.println(head + " -> cannot parse the order: fails" + (task.attempt() >= DemoCommand.MAX_ATTEMPTS ? ", dead-lettered" : ", will retry"));
            if (task.attempt() >= DemoCommand.MAX_ATTEMPTS) {
                settled.accept(task.id());
            }
            throw new IllegalStateException("order payload is corrupt");
        }
        if (payload.contains("payment-gateway") && task.attempt() < 3) {
            out.println(head + " -> payment gateway timed out: will retry with backoff");
            throw new IllegalStateException("payment gateway timed out");
        }
        if (payload.contains("unknown-order")) {
            out.println(head + " -> order does not exist: permanent failure, dead-lettered at once");
            settled.accept(task.id());
            throw new PermanentFailure("order does not exist");
        }
        out.println(head + " -> unpaid order cancelled, stock released");
        task.result().set("unpaid order cancelled, stock released");
        if (seen.add(task.id())) {
            settled.accept(task.id());
        }
    }
}
