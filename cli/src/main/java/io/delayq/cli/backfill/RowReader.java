package io.delayq.cli.backfill;

import io.delayq.InvalidInputException;
import io.delayq.cli.text.Instants;
import io.delayq.client.DelayQueueClient;
import io.delayq.task.Schedule;
import io.delayq.task.TaskSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Reads rows one at a time, so a file of millions of rows never sits in memory at once. */
interface RowReader extends AutoCloseable {
    /** The next row, or null at the end. A malformed row comes back rejected; it never ends the file. */
    Row next() throws IOException;

    @Override
    void close() throws IOException;

    /** The checks every format shares, with the field named in the reason. */
    static Row task(long line, String id, String dueAt, String payload, String priority) {
        try {
            if (id == null || id.isEmpty()) {
                throw new InvalidInputException("id", "is required");
            }
            Schedule due = Schedule.at(Instants.parseInstantOrEpochMillis("dueAt", dueAt));
            int level = 0;
            if (priority != null && !priority.isBlank()) {
                try {
                    level = Integer.parseInt(priority.trim());
                } catch (NumberFormatException e) {
                    throw new InvalidInputException("priority", "must be 0, 1 or 2, got '" + priority + "'");
                }
            }
            if (payload != null && payload.getBytes(StandardCharsets.UTF_8).length > DelayQueueClient.DEFAULT_MAX_PAYLOAD_BYTES) {
                throw new InvalidInputException("payload", "must be at most " + DelayQueueClient.DEFAULT_MAX_PAYLOAD_BYTES
                        + " bytes of UTF-8, got " + payload.getBytes(StandardCharsets.UTF_8).length);
            }
            return Row.ok(line, new TaskSpec(id, due, payload, level));
        } catch (InvalidInputException e) {
            return Row.rejected(line, e.getMessage());
        }
    }
}
