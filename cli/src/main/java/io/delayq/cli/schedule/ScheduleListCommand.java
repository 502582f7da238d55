package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Instants;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.cli.text.Table;
import io.delayq.schedule.ScheduleStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.List;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the queue's schedules: cron and zone, next and last firing, what became of the last occurrence, missed ones.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:listed (also when there is none)", "1:the queue does not exist in Redis", ExitCodes.L_USAGE, ExitCodes.L_REDIS,
                ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule list", "  delayq schedule list --output json | jq -r '.schedules[].name'"})
public class ScheduleListCommand extends QueueCommand {
    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    /** One schedule in {@code --output json}. */
    public record Entry(String name, String cron, String timeZone, long revision, boolean paused, String managedBy, String nextFire,
                        String lastFired, String lastTaskId, String lastOutcome, long missed, long late,
                        String calendar, String calendarRule) {
    }

    public record ListJson(String queue, List<Entry> schedules) {
    }

    @Override
    protected int run(QueueConnection queue) {
        List<ScheduleStatus> all = io.delayq.schedule.Schedules.of(queue.client()).list();
        if (output == OutputFormat.JSON) {
            Json.print(out(), new ListJson(queue.queue(), all.stream().map(s -> new Entry(s.name(), s.definition().cron(),
                    s.definition().timeZone(), s.revision(), s.definition().paused(), s.definition().managedBy(), text(s.nextFire()),
                    text(s.lastFired()), s.lastTaskId(), s.lastOutcome().wire(), s.missed(), s.late(),
                    s.definition().calendar() == null ? null : s.definition().calendar().name(),
                    s.definition().calendarRule() == null ? null : s.definition().calendarRule().wire())).toList()));
            return ExitCodes.OK;
        }
        Table t = new Table(List.of("NAME", "CRON", "ZONE", "STATE", "NEXT", "LAST FIRED", "LAST OUTCOME", "MISSED"),
                false, false, false, false, false, false, false, true);
        for (ScheduleStatus s : all) {
            String zone = s.definition().calendar() == null ? s.definition().timeZone()
                    : s.definition().timeZone() + " (" + s.definition().calendarRule().wire() + " " + s.definition().calendar().name() + ")";
            t.row(s.name(), s.definition().cron(), zone, s.definition().paused() ? "paused" : "active",
                    s.nextFire() == null ? "-" : Instants.local(s.nextFire().toEpochMilli(), environment().zone()),
                    s.lastFired() == null ? "-" : Instants.local(s.lastFired().toEpochMilli(), environment().zone()),
                    s.lastOutcome().wire(), s.missed());
        }
        t.print(out());
        out().println(all.size() + " schedule(s) in queue " + queue.queue());
        return ExitCodes.OK;
    }

    private static String text(Instant i) {
        return i == null ? null : i.toString();
    }
}
