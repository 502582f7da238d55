package io.delayq.console.browser;

import io.delayq.backlog.ShardStats;
import io.delayq.console.AheadQueue;
import io.delayq.console.ConsoleFixture;
import io.delayq.console.sample.SampleQueue;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console in a real browser (Debian's headless chromium) against a real Redis holding real tasks:
 * every page shows the numbers Redis holds, every action changes Redis exactly as its confirmation
 * said, and errors render as errors. Screenshots land in {@code target/screenshots} (or the folder
 * named by {@code -Ddelayq.screenshots=...}, e.g. {@code docs/console} to refresh the documentation's).
 */
class ConsoleBrowserTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Path SHOTS = Path.of(System.getProperty("delayq.screenshots", "target/screenshots"));
    private static final String Q = SampleQueue.QUEUE;

    private ConsoleFixture f;
    private Browser browser;

    @RegisterExtension
    final ConsoleInBrowser console = new ConsoleInBrowser(redis);

    @BeforeEach
    void start() {
        f = console.fixture();
        browser = console.browser();
    }

    private String page(String hash) {
        return f.url() + hash;
    }

    private void signIn() {
        console.signIn();
    }

    private long sum(java.util.function.IntToLongFunction perShard) {
        return IntStream.range(0, SampleQueue.SHARDS).mapToLong(perShard).sum();
    }

    private ShardKeys keys(int shard) {
        return new ShardKeys(Q, shard);
    }

    @Test
    void theOverviewShowsEveryQueueWithTheCountsInRedis() throws Exception {
        long now = f.serverNow();
        long waiting = sum(f::waiting);
        long due = sum(s -> f.dueBy(s, now));
        long inflight = sum(f::inflight);
        long dead = sum(s -> f.zcard(keys(s).dead()));
        SampleQueue.Counts filled = f.filled();
        assertThat(List.of(waiting - due, due, inflight, dead)).as("Redis holds what the fixture put there")
                .containsExactly((long) filled.scheduled(), (long) filled.due(), (long) filled.inflight(), (long) filled.dead());
        // a few history samples (every second here), so that the plot has a line
        await().atMost(Duration.ofSeconds(10)).until(() -> f.historySamples(Q) >= 3);

        browser.open(page("#/"));

        WebElement row = browser.find("tr[data-queue='" + Q + "']");
        assertThat(cell(row, "scheduled")).isEqualTo(String.valueOf(waiting - due));
        assertThat(cell(row, "due")).isEqualTo(String.valueOf(due));
        assertThat(cell(row, "inflight")).isEqualTo(String.valueOf(inflight));
        assertThat(cell(row, "dead")).isEqualTo(String.valueOf(dead));
        assertThat(cell(row, "overdue")).matches("\\d+s");
        assertThat(cell(row, "paused")).isEqualTo("running");
        assertThat(cell(browser.find("tr[data-queue='coupons']"), "scheduled")).isEqualTo(String.valueOf(ConsoleFixture.COUPONS));
        assertThat(browser.all(".chart svg polyline")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(browser.text("#read-only, #session")).doesNotContain("read-only");
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-overview.png"));
    }

    private static String cell(WebElement row, String col) {
        return row.findElement(org.openqa.selenium.By.cssSelector("[data-col='" + col + "']")).getText();
    }

    @Test
    void theQueuePageShowsEachShardAsRedisHoldsIt() throws Exception {
        // read before and after the page: a schedule's next fire moves on if a period ends in between
        java.util.Map<String, Long> nextBefore = new java.util.HashMap<>();
        io.delayq.schedule.Schedules.of(f.orders()).list().forEach(sch -> nextBefore.put(sch.name(), sch.nextFire().toEpochMilli()));
        browser.open(page("#/q/" + Q));

        List<ShardStats> stats = f.orders().stats().shards();
        for (ShardStats s : stats) {
            WebElement row = browser.find("#shards tr[data-shard='" + s.shard() + "']");
            assertThat(cell(row, "dead")).isEqualTo(String.valueOf(f.zcard(keys(s.shard()).dead())));
            assertThat(cell(row, "inflight")).isEqualTo(String.valueOf(f.inflight(s.shard())));
            assertThat(cell(row, "due")).isEqualTo(String.valueOf(f.dueBy(s.shard(), f.serverNow())));
            assertThat(cell(row, "workers")).isEqualTo(s.shard() <= 3 ? ConsoleFixture.WORKER_LOW : ConsoleFixture.WORKER_HIGH);
        }
        // the presence registry as the workers wrote it: ranges, version, leases held
        List<io.delayq.presence.WorkerPresence> alive = new io.delayq.presence.PresenceRegistry(f.raw(), Q, Duration.ofSeconds(5)).alive(f.serverNow());
        assertThat(alive).hasSize(2);
        for (io.delayq.presence.WorkerPresence w : alive) {
            WebElement row = browser.find("#workers tr[data-worker='" + w.id() + "']");
            assertThat(cell(row, "shards")).isEqualTo(w.shards().from() + "–" + w.shards().to());
            assertThat(cell(row, "version")).isEqualTo(w.version());
            assertThat(cell(row, "held")).isEqualTo(String.valueOf(w.held()));
        }
        // the recurring schedules, as core's Schedules reads them
        for (io.delayq.schedule.ScheduleStatus sch : io.delayq.schedule.Schedules.of(f.orders()).list()) {
            WebElement row = browser.find("#schedules tr[data-schedule='" + sch.name() + "']");
            assertThat(cell(row, "cron")).isEqualTo(sch.definition().cron());
            assertThat(cell(row, "zone")).isEqualTo(sch.definition().timeZone());
            assertThat(row.findElement(org.openqa.selenium.By.cssSelector("[data-col='next']")).getAttribute("data-ms"))
                    .isIn(String.valueOf(nextBefore.get(sch.name())), String.valueOf(sch.nextFire().toEpochMilli()));
            assertThat(cell(row, "outcome")).isEqualTo(sch.lastOutcome().wire());
            assertThat(cell(row, "state")).startsWith(sch.definition().paused() ? "paused" : "active");
        }
        assertThat(browser.text("#t-dead b")).isEqualTo(String.valueOf(f.filled().dead()));
        assertThat(browser.text("#t-inflight b")).isEqualTo(String.valueOf(f.filled().inflight()));
        assertThat(browser.find("#pause").isEnabled()).as("not signed in: actions are disabled").isFalse();
        // a disabled danger button looks disabled like every other one, not like the red button it is when enabled
        WebElement purge = browser.find("#purge-all");
        assertThat(purge.isEnabled()).isFalse();
        for (String property : List.of("background-color", "color", "border-top-color", "cursor", "opacity")) {
            assertThat(purge.getCssValue(property)).as(property).isEqualTo(browser.find("#pause").getCssValue(property));
        }
        assertThat(purge.getCssValue("cursor")).isEqualTo("not-allowed");
        WebElement enabledDanger = browser.driver().findElement(org.openqa.selenium.By.id("confirm-yes"));
        assertThat(enabledDanger.isEnabled()).isTrue();
        assertThat(purge.getCssValue("background-color")).isNotEqualTo(enabledDanger.getCssValue("background-color"));
        assertThat(purge.getCssValue("color")).isNotEqualTo(enabledDanger.getCssValue("color"));
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-queue.png"));
    }

    @Test
    void theNextHourShowsEachTaskInTheBinItFallsDueIn() throws Exception {
        // queues made before the console starts, so that its list of queues has them at once
        console.closeFixture();
        redis.admin().commands().flushall().get();
        AheadQueue.Filled ahead = AheadQueue.fill(redis.admin());
        try (io.delayq.client.DelayQueueClient idle = io.delayq.client.DelayQueueClient.builder().redis(redis.admin()).queue("idle").shards(1).build()) {
            idle.enqueue(io.delayq.task.TaskSpec.of("late").at(Instant.ofEpochMilli(ahead.filledAt() - 5_000)));
        }
        f = console.use(ConsoleFixture.start(redis, ConsoleFixture.TOKEN));

        browser.open(page("#/q/" + AheadQueue.QUEUE));
        List<WebElement> bars = browser.all("#forecast svg rect.bar");
        assertThat(bars).hasSize(12);
        List<Long> counts = new java.util.ArrayList<>();
        for (WebElement bar : bars) {
            long from = Long.parseLong(bar.getAttribute("data-from"));
            long to = Long.parseLong(bar.getAttribute("data-to"));
            long tasks = Long.parseLong(bar.getAttribute("data-tasks"));
            assertThat(tasks).as("bar %s", bar.getAttribute("data-bin")).isEqualTo(AheadQueue.count(ahead.dueAt().values(), from, to));
            String title = bar.findElement(org.openqa.selenium.By.tagName("title")).getAttribute("textContent");
            assertThat(title).startsWith(tasks + (tasks == 1 ? " task due in " : " tasks due in "));
            counts.add(tasks);
        }
        // 3 tasks 2 minutes ahead, 5 (grouped) 12 minutes ahead, 2 at 31, 1 at 59; the overdue and those 90 minutes ahead in none
        assertThat(counts).containsExactly(3L, 0L, 5L, 0L, 0L, 0L, 2L, 0L, 0L, 0L, 0L, 1L);
        assertThat(bars.get(0).findElement(org.openqa.selenium.By.tagName("title")).getAttribute("textContent")).startsWith("3 tasks due in 0–5 min (");
        // bar heights follow the counts: the 5 reaches the top of the plot, an empty bin has none
        double full = Double.parseDouble(bars.get(2).getAttribute("height"));
        assertThat(Double.parseDouble(bars.get(0).getAttribute("height"))).isCloseTo(full * 3 / 5, org.assertj.core.data.Offset.offset(0.2));
        assertThat(Double.parseDouble(bars.get(1).getAttribute("height"))).isZero();
        assertThat(browser.text(".chart [data-axis='left'] .axis-label")).as("the history chart's first").isNotEmpty();
        assertThat(browser.find("#forecast [data-axis='left'] .axis-label").getText()).isEqualTo("5");
        WebElement next = browser.find("#forecast-next");
        assertThat(next.getAttribute("data-ms")).isEqualTo(String.valueOf(ahead.nextDueAt()));
        assertThat(next.getText()).startsWith("11 tasks due in the next hour; the next in ")
                .endsWith("(" + Instant.ofEpochMilli(ahead.nextDueAt()) + ").");
        // beside the history chart, at the same height
        org.openqa.selenium.Rectangle history = browser.find(".charts section:first-child figure").getRect();
        org.openqa.selenium.Rectangle forecast = browser.find("#forecast").getRect();
        assertThat(forecast.getX()).isGreaterThanOrEqualTo(history.getX() + history.getWidth());
        assertThat(forecast.getY()).isEqualTo(history.getY());
        assertAxisLabelsInsideTheirChart();

        // its first coupon is two hours ahead: an empty chart, and when the next one is due
        browser.open(page("#/q/coupons"));
        assertThat(browser.all("#forecast svg rect.bar")).hasSize(12)
                .allSatisfy(bar -> assertThat(bar.getAttribute("data-tasks")).isEqualTo("0"));
        assertThat(browser.text("#forecast-next")).startsWith("Nothing due in the next hour; the next task is due in 1h ");
        // nothing waits for a later time at all
        browser.open(page("#/q/idle"));
        assertThat(browser.all("#forecast svg rect.bar")).allSatisfy(bar -> assertThat(bar.getAttribute("height")).isEqualTo("0.0"));
        assertThat(browser.text("#forecast-next")).isEqualTo("Nothing due in the next hour; no task waits for a later time.");
        assertThat(browser.find("#forecast-next").getAttribute("data-ms")).isEqualTo("-1");
        assertAxisLabelsInsideTheirChart();

        browser.open(page("#/"));
        WebElement row = browser.find("tr[data-queue='" + AheadQueue.QUEUE + "']");
        assertThat(cell(row, "next-hour")).isEqualTo("11");
        assertThat(cell(row, "next-due")).matches("in (1m \\d{2}s|\\d{1,2}s)");
        assertThat(row.findElement(org.openqa.selenium.By.cssSelector("[data-col='next-due']")).getAttribute("data-ms"))
                .isEqualTo(String.valueOf(ahead.nextDueAt()));
        assertThat(cell(browser.find("tr[data-queue='idle']"), "next-due")).isEqualTo("–");
        assertThat(cell(browser.find("tr[data-queue='coupons']"), "next-hour")).isEqualTo("0");
        assertThat(browser.find("tr[data-queue='idle'] [data-col='next-hour']").getAttribute("title"))
                .isEqualTo("Nothing due in the next hour; no task waits for a later time.");
    }

    @Test
    void theTaskBrowserFiltersByPrefixAndWindowAndPagesOn() throws Exception {
        browser.open(page("#/q/" + Q + "/tasks?state=scheduled&prefix=order-100&limit=5"));

        assertThat(ids()).containsExactly("order-10000", "order-10001", "order-10002", "order-10003", "order-10004");
        assertThat(browser.text("#summary")).startsWith("5 shown · " + f.filled().scheduled() + " scheduled (before the id prefix filter 'order-100')");
        String before = browser.readyMark();
        browser.find("#next").click();
        browser.waitRendered(before);
        assertThat(ids()).containsExactly("order-10005", "order-10006", "order-10007", "order-10008", "order-10009");

        // a due window typed into the form: exactly the tasks Redis has inside it
        long from = f.dueScore("order-10010").longValue();
        long to = f.dueScore("order-10012").longValue();
        browser.find("#f-prefix").clear();
        browser.find("#f-limit").clear();
        browser.find("#f-from").sendKeys(Instant.ofEpochMilli(from).toString());
        browser.find("#f-to").sendKeys(Instant.ofEpochMilli(to).toString());
        before = browser.readyMark();
        browser.find("#filters button[type=submit]").click();
        browser.waitRendered(before);
        assertThat(ids()).containsExactly("order-10010", "order-10011", "order-10012");
        assertThat(browser.text("#summary")).startsWith("3 shown · 3 scheduled in the window");

        browser.open(page("#/q/" + Q + "/tasks?state=dead&limit=10"));
        assertThat(ids()).hasSize(10);
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-tasks.png"));
    }

    /** Every dead letter of the sample queue, read from its shards' dead sets. */
    private List<String> deadIds() {
        List<String> out = new java.util.ArrayList<>();
        for (int shard = 0; shard < SampleQueue.SHARDS; shard++) {
            out.addAll(Replies.await(f.raw().commands().zrange(keys(shard).dead(), 0, -1), Duration.ofSeconds(5)));
        }
        return out;
    }

    private List<String> ids() {
        return browser.all("#tasks tbody tr").stream().map(r -> r.getAttribute("data-id")).toList();
    }

    @Test
    void theTaskPageShowsRecordAttemptsAndLastError() throws Exception {
        browser.open(page("#/q/" + Q + "/task/payout-501"));

        assertThat(browser.text("#task-state")).isEqualTo("dead");
        assertThat(browser.text("#task-attempts")).isEqualTo("1");
        assertThat(browser.text("#task-error")).isEqualTo(f.lastError("payout-501"));
        assertThat(browser.text("#task-payload")).isEqualTo("{\"payout\":\"payout-501\"}");
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-task.png"));

        browser.open(page("#/q/" + Q + "/task/" + ConsoleFixture.HELD));
        assertThat(browser.text("#task-state")).isEqualTo("inflight");
        long lease = f.inflightScore(ConsoleFixture.HELD).longValue();
        assertThat(browser.find("#task-score").getAttribute("data-ms")).isEqualTo(String.valueOf(lease));
        String record = browser.text("#record");
        assertThat(record).contains("lease expires\n" + Instant.ofEpochMilli(lease));
        assertThat(record.split(java.util.regex.Pattern.quote(Instant.ofEpochMilli(lease).toString()), -1))
                .as("the lease expiry is shown once: %s", record).hasSize(2);
        String holder = f.orders().protocol().shardOf(ConsoleFixture.HELD) <= 3 ? ConsoleFixture.WORKER_LOW : ConsoleFixture.WORKER_HIGH;
        // the answer the CLI's inspect prints too (core's InFlightLease), here without the expiry shown above
        assertThat(browser.text("#task-holder")).startsWith("a worker (" + holder + " on ").contains("is running it (attempt 1)")
                .contains("reported with this lease's token");
        assertThat(browser.text("#task-progress")).isEqualTo("none reported by the handler");
        f.reportProgress(ConsoleFixture.HELD, 40, "4,000 of 10,000 coupons");

        // the other in-flight task: no worker reported its lease, the page says so and names the shard's owners
        String other = "coupon-expire-78";
        int shard = f.orders().protocol().shardOf(other);
        browser.open(page("#/q/" + Q + "/task/" + other));
        assertThat(browser.text("#task-holder")).startsWith("not reported by the live workers owning shard " + shard + " ("
                        + (shard <= 3 ? ConsoleFixture.WORKER_LOW : ConsoleFixture.WORKER_HIGH) + ")");

        // back on the held task: what its handler reported meanwhile
        browser.open(page("#/q/" + Q + "/task/" + ConsoleFixture.HELD));
        assertThat(browser.text("#task-progress")).startsWith("40 % — 4,000 of 10,000 coupons (reported ").endsWith(" ago)");
        assertThat(browser.find("#task-progress progress").getAttribute("value")).isEqualTo("40");
    }

    @Test
    void aSucceededTaskShowsItsCompletionAndTheQueuePageListsRecentCompletions() throws Exception {
        browser.open(page("#/q/" + Q));
        assertThat(browser.text("#no-completions")).startsWith("No completion kept");

        f.completed("refund-9", "refund r-9 issued");
        browser.open(page("#/q/" + Q + "/task/refund-9"));
        assertThat(browser.text("#task-state")).isEqualTo("succeeded");
        assertThat(browser.text("#task-completion")).contains("after 1 attempt, by worker " + ConsoleFixture.WORKER_LOW);
        assertThat(browser.text("#task-result")).isEqualTo("refund r-9 issued");
        assertThat(browser.all("#task-payload")).as("its record went with its ack").isEmpty();
        assertThat(browser.all("#cancel")).as("nothing waits to be cancelled").isEmpty();
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-task-succeeded.png"));

        browser.open(page("#/q/" + Q));
        assertThat(browser.all("#completions tbody tr")).extracting(r -> r.getAttribute("data-task")).containsExactly("refund-9");
        assertThat(browser.text("#completions [data-col=result]")).isEqualTo("refund r-9 issued");
        assertThat(browser.text("#completions [data-col=worker]")).isEqualTo(ConsoleFixture.WORKER_LOW);
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-queue-completions.png"));
    }

    @Test
    void theTaskPageShowsPerTaskOptionsAsLabelledFields() throws Exception {
        io.delayq.task.TaskOptions sent = f.filled().withOptions().stream().filter(t -> t.id().equals(SampleQueue.CAPTURE))
                .findFirst().orElseThrow().options();
        String traceId = SampleQueue.TRACEPARENT.split("-")[1];
        browser.open(page("#/q/" + Q + "/task/" + SampleQueue.CAPTURE));

        WebElement expires = browser.find("#task-expires");
        assertThat(expires.getAttribute("data-ms")).isEqualTo(String.valueOf(sent.expiresAt()));
        // a readable UTC time and how far ahead it is (3 h after the fixture enqueued it, read a few seconds later)
        assertThat(expires.getText()).matches(java.util.regex.Pattern.quote(Instant.ofEpochMilli(sent.expiresAt()).toString())
                + " \\(in (2h 59m|3h 00m); 1h 00m after its due time\\)");
        assertThat(browser.all("#task-expired")).isEmpty();
        assertThat(browser.find("#task-on-expiry").getAttribute("data-action")).isEqualTo("discard");
        assertThat(browser.text("#task-on-expiry")).startsWith("discard: deleted without running");
        assertThat(browser.text("#task-max-attempts")).isEqualTo("10 (instead of the worker's DELAYQ_RETRY_MAX_ATTEMPTS)");
        assertThat(browser.text("#task-backoff")).startsWith("2s ");
        assertThat(browser.text("#task-backoff-max")).startsWith("10m 00s ");
        assertThat(browser.text("#task-backoff-multiplier")).startsWith("×3 per attempt");
        assertThat(browser.text("#task-trace-sampled")).isEqualTo("yes (flags 01)");
        assertThat(browser.text("#task-trace-parent")).isEqualTo(SampleQueue.TRACEPARENT.split("-")[2]);
        assertThat(browser.text("#task-tracestate")).isEqualTo(SampleQueue.TRACESTATE);
        WebElement link = browser.find("#task-trace-link");
        assertThat(link.getText()).isEqualTo(traceId);
        assertThat(link.getAttribute("href")).isEqualTo(ConsoleFixture.TRACE_URL.replace("{traceId}", traceId));
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-task-options.png"));

        // Copy puts the trace id on the clipboard (the test's browser is granted clipboard access to read it back)
        browser.driver().executeCdpCommand("Browser.grantPermissions", java.util.Map.of("origin", f.url().replaceAll("(https?://[^/]+).*", "$1"),
                "permissions", List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
        browser.find("#task-trace-copy").click();
        await().atMost(Duration.ofSeconds(5)).until(() -> browser.text("#task-trace-copy-status").equals("copied"));
        Object copied = browser.driver().executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "navigator.clipboard.readText().then(done, e => done('error: ' + e))");
        assertThat(copied).isEqualTo(traceId);

        // a hand-written record's group key and a field no delayq version knows, shown as stored
        browser.open(page("#/q/" + Q + "/task/" + SampleQueue.GROUPED));
        assertThat(browser.text("#task-options dd[data-field='group']")).isEqualTo("tenant-42");
        assertThat(browser.text("#task-options dd[data-field='region']")).isEqualTo("{\"zone\":\"eu-1\",\"racks\":[3,4]}");
        assertThat(browser.all("#task-expires")).isEmpty();

        // a debounced task with a dedup window: delayq's own fields, labelled, with the deadline the script fixed
        f.orders().enqueue(io.delayq.task.TaskSpec.of("reindex-7").debounce(Duration.ofMinutes(5), Duration.ofMinutes(30))
                .dedupWindow(Duration.ofMinutes(10)), io.delayq.task.DuplicatePolicy.DEBOUNCE);
        browser.open(page("#/q/" + Q + "/task/reindex-7"));
        assertThat(browser.find("#task-dedup-window").getAttribute("data-ms")).isEqualTo("600000");
        assertThat(browser.text("#task-debounce-wait")).isEqualTo("fires at most 30m 00s after its burst's first enqueue");
        long deadline = Long.parseLong(browser.find("#task-debounce-deadline").getAttribute("data-at"));
        assertThat(deadline).isBetween(f.serverNow() + Duration.ofMinutes(29).toMillis(), f.serverNow() + Duration.ofMinutes(30).toMillis());
        assertThat(browser.all("#task-options dd[data-field]")).isEmpty();

        // the default action is named so; a task without options says what applies instead
        browser.open(page("#/q/" + Q + "/task/" + SampleQueue.REMINDER));
        assertThat(browser.text("#task-on-expiry")).startsWith("dead-letter (the default)");
        assertThat(browser.text("#task-max-attempts")).startsWith("2 ");
        assertThat(browser.all("#task-trace-id")).isEmpty();
        browser.open(page("#/q/" + Q + "/task/order-10001"));
        assertThat(browser.text("#task-options-none")).startsWith("None: the worker's retry settings apply");
    }

    @Test
    void aScheduleIsPausedAndResumedThroughTheConfirmation() throws Exception {
        signIn();
        browser.open(page("#/q/" + Q));
        String name = SampleQueue.SCHEDULE;
        String said = browser.confirm("#schedule-pause-" + name, false);
        assertThat(said).contains("Pause schedule '" + name + "'");
        assertThat(io.delayq.schedule.Schedules.of(f.orders()).get(name).orElseThrow().definition().paused()).as("declined: nothing changed").isFalse();

        browser.confirm("#schedule-pause-" + name, true);
        assertThat(browser.text("#notice")).isEqualTo("Paused schedule '" + name + "'.");
        assertThat(io.delayq.schedule.Schedules.of(f.orders()).get(name).orElseThrow().definition().paused()).isTrue();
        assertThat(cell(browser.find("#schedules tr[data-schedule='" + name + "']"), "state")).isEqualTo("paused");
        assertThat(cell(browser.find("#schedules tr[data-schedule='" + name + "']"), "next")).isEqualTo("–");

        said = browser.confirm("#schedule-resume-" + name, true);
        assertThat(said).contains("Resume schedule '" + name + "'").contains("misfire policy (fireOnceNow)");
        assertThat(io.delayq.schedule.Schedules.of(f.orders()).get(name).orElseThrow().definition().paused()).isFalse();
        assertThat(browser.all("#schedules tr[data-schedule='" + ConsoleFixture.MANAGED_SCHEDULE + "'] button"))
                .as("a schedule of a DelayQueue resource is changed in the resource").isEmpty();

        browser.open(page("#/"));
        List<String> audit = browser.all("#audit tbody tr").stream().map(WebElement::getText).toList();
        assertThat(audit.get(0)).contains("schedule-resume").contains("schedule " + name);
        assertThat(audit.get(1)).contains("schedule-pause");
    }

    @Test
    void cancelRescheduleAndRunNowChangeRedisAsConfirmed() throws Exception {
        signIn();

        browser.open(page("#/q/" + Q + "/task/order-10001"));
        String said = browser.confirm("#cancel", false);
        assertThat(said).contains("Cancel task 'order-10001'");
        assertThat(f.dueScore("order-10001")).as("declined: nothing changed").isNotNull();
        said = browser.confirm("#cancel", true);
        assertThat(browser.text("#notice")).isEqualTo("Cancelled order-10001.");
        assertThat(f.dueScore("order-10001")).isNull();
        assertThat(f.hasRecord("order-10001")).isFalse();

        Instant target = Instant.parse("2031-05-06T07:08:09Z");
        browser.open(page("#/q/" + Q + "/task/order-10002"));
        browser.find("#reschedule-at").clear();
        browser.find("#reschedule-at").sendKeys(target.toString());
        said = browser.confirm("#reschedule", true);
        assertThat(said).contains("Move task 'order-10002'").contains("to 2031-05-06T07:08:09Z");
        assertThat(f.dueScore("order-10002")).isEqualTo((double) target.toEpochMilli());
        assertThat(browser.text("#task-score")).startsWith("2031-05-06T07:08:09Z");

        browser.open(page("#/q/" + Q + "/task/order-10003"));
        long before = f.serverNow();
        said = browser.confirm("#run-now", true);
        assertThat(said).contains("Move task 'order-10003'").contains("to now");
        assertThat(f.dueScore("order-10003")).isBetween((double) before - 1000, (double) f.serverNow());
        assertThat(browser.text("#task-state")).isEqualTo("due");
        browser.screenshot(SHOTS.resolve("console-action-done.png"));
    }

    @Test
    void replayAndPurgeDeadLettersOneFilteredAndAll() throws Exception {
        signIn();

        browser.open(page("#/q/" + Q + "/task/payout-500"));
        String said = browser.confirm("#replay", true);
        assertThat(said).contains("Replay 1 dead letter (id payout-500)");
        assertThat(f.isDead("payout-500")).isFalse();
        assertThat(f.dueScore("payout-500")).isLessThanOrEqualTo((double) f.serverNow());
        assertThat(f.attempts("payout-500")).as("attempts reset").isNull();

        List<String> matching = deadIds().stream().filter(id -> id.startsWith("payout-51")).sorted().toList();
        long purged = matching.size();
        assertThat(purged).as("the fixture's dead letters include some with the prefix").isPositive();
        browser.open(page("#/q/" + Q + "/tasks?state=dead&prefix=payout-51"));
        browser.find("#purge-matching").click();
        browser.find("#confirm[open] #confirm-message");
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-confirm.png"));
        assertThat(browser.text("#confirm-message")).contains("Purge " + purged + " dead letters (id prefix 'payout-51')");
        assertThat(browser.text("#confirm-sample")).contains(matching.get(0)).contains(matching.get(matching.size() - 1));
        String mark = browser.readyMark();
        browser.find("#confirm-yes").click();
        browser.waitRendered(mark);
        assertThat(browser.text("#notice")).isEqualTo("Purged " + purged + " dead letters.");
        for (String id : matching) {
            assertThat(f.isDead(id)).isFalse();
            assertThat(f.hasRecord(id)).isFalse();
        }
        assertThat(f.isDead("payout-509")).isTrue();
        assertThat(f.isDead("payout-520")).isTrue();
        long left = sum(s -> f.zcard(keys(s).dead()));
        assertThat(left).isEqualTo(f.filled().dead() - 1 - purged);

        browser.open(page("#/q/" + Q));
        said = browser.confirm("#replay-all", true);
        assertThat(said).contains("Replay " + left + " dead letters (all dead letters)");
        assertThat(sum(s -> f.zcard(keys(s).dead()))).isZero();
        assertThat(f.dueScore("payout-520")).as("replayed: due again").isNotNull();
        assertThat(browser.text("#t-dead b")).isEqualTo("0");
    }

    @Test
    void pauseAndResumeSetAndClearEveryShardsFlag() throws Exception {
        signIn();
        browser.open(page("#/q/" + Q));

        String said = browser.confirm("#pause", true);
        assertThat(said).contains("Pause queue 'shop-orders' (" + SampleQueue.SHARDS + " shards)?");
        for (int s = 0; s < SampleQueue.SHARDS; s++) {
            assertThat(f.shardPaused(s)).as("shard %d", s).isTrue();
        }
        assertThat(f.metaField("pausedBy")).isEqualTo("console:alice@127.0.0.1");
        assertThat(browser.text("#paused-note")).contains("by console:alice@127.0.0.1");
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-paused.png"));

        browser.confirm("#resume", true);
        for (int s = 0; s < SampleQueue.SHARDS; s++) {
            assertThat(f.shardPaused(s)).as("shard %d", s).isFalse();
        }
        assertThat(f.metaField("paused")).isNull();
        assertThat(browser.find("#pause").isEnabled()).isTrue();

        browser.open(page("#/"));
        List<String> audit = browser.all("#audit tbody tr").stream().map(WebElement::getText).toList();
        assertThat(audit).hasSize(2);
        assertThat(audit.get(0)).contains("alice@127.0.0.1").contains("resume");
        assertThat(audit.get(1)).contains("alice@127.0.0.1").contains("pause").contains("queue shop-orders");
    }

    @Test
    void underAPathPrefixThePagesLinksAndActionsWork() throws Exception {
        // as behind an Ingress with path /ops/delayq/ (DELAYQ_CONSOLE_PATH, the chart's console.ingress.path)
        console.closeFixture();
        redis.admin().commands().flushall().get();
        f = console.use(ConsoleFixture.start(redis, redis.url(), ConsoleFixture.TOKEN, new ConsoleFixture.Options(List.of(), "/ops/delayq/",
                io.delayq.console.ConsoleSettings.DEFAULT_MAX_QUEUES)));
        assertThat(f.url()).endsWith("/ops/delayq/");
        signIn();
        assertThat(browser.find("tr[data-queue='" + Q + "']").isDisplayed()).isTrue();
        String before = browser.readyMark();
        browser.find("tr[data-queue='" + Q + "'] a").click();
        browser.waitRendered(before);
        assertThat(browser.driver().getCurrentUrl()).contains("/ops/delayq/#/q/" + Q);
        assertThat(browser.text("#t-due b")).isEqualTo(String.valueOf(f.filled().due()));
        browser.confirm("#pause", true);
        assertThat(f.orders().pauseState().paused()).as("the action went to /ops/delayq/api/… with the session cookie").isTrue();
        Number styled = (Number) browser.driver().executeScript("return document.styleSheets.length && document.styleSheets[0].cssRules.length");
        assertThat(styled.intValue()).as("the style sheet loaded from under the prefix").isPositive();
    }

    @Test
    void theChartsAxisLabelsFitInsideTheChart() throws Exception {
        // a task overdue by almost two days: the lag axis's label is as long as it gets ("47h 50m")
        Duration overdue = Duration.ofHours(47).plusMinutes(50);
        f.orders().enqueue(io.delayq.task.TaskSpec.of("overdue-since-yesterday").at(Instant.ofEpochMilli(f.serverNow()).minus(overdue)));
        await().atMost(Duration.ofSeconds(10)).until(() -> f.lastSampledLag(Q) >= overdue.toMillis());

        browser.open(page("#/q/" + Q));
        assertThat(browser.text(".chart [data-axis='right'] .axis-label")).isEqualTo("47h 50m");
        assertAxisLabelsInsideTheirChart();

        browser.open(page("#/"));
        assertAxisLabelsInsideTheirChart();

        browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        browser.open(page("#/q/" + Q));
        assertAxisLabelsInsideTheirChart();
    }

    /** Every axis label lies inside its chart's box, and the value axes' labels beside the plot, not over it. */
    private void assertAxisLabelsInsideTheirChart() {
        @SuppressWarnings("unchecked")
        List<String> labels = (List<String>) browser.driver().executeScript("const seen = [];"
                + "const inside = (r, b) => r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom;"
                + "for (const c of document.querySelectorAll('.chart')) {"
                + "  const box = c.getBoundingClientRect(), plot = c.querySelector('svg').getBoundingClientRect();"
                + "  for (const l of c.querySelectorAll('.axis-label')) {"
                + "    const r = l.getBoundingClientRect(), axis = l.parentElement.dataset.axis;"
                + "    const clear = axis === 'right' ? r.left >= plot.right : axis === 'left' ? r.right <= plot.left : r.top >= plot.bottom;"
                + "    seen.push((inside(r, box) && clear ? 'fits: ' : 'outside: ') + axis + ' ' + l.textContent"
                + "      + ' [' + [r.left, r.top, r.right, r.bottom].map(Math.round) + '] in [' + [box.left, box.top, box.right, box.bottom].map(Math.round) + ']');"
                + "  }"
                + "}"
                + "return seen;");
        assertThat(labels).as("axis labels of the charts").isNotEmpty().allMatch(l -> l.startsWith("fits: "));
    }

    @Test
    void aReshardInProgressShowsOnTheQueuePageAndTheOverview() throws Exception {
        int to = SampleQueue.SHARDS * 2;
        // a real mover, stopped after its first pass the way an operator stops it (between two batches): the
        // migration and the mover's counts stay in the meta hash, and the next mover resumes from there
        RuntimeException stop = new IllegalStateException("stopped after its first pass");
        io.delayq.reshard.Mover mover = new io.delayq.reshard.Mover(io.delayq.reshard.Mover.Params.of(f.orders().protocol(), to, p -> {
            if (p.pass() > 1 || p.pass() == 1 && !p.phase().equals("moving")) {
                throw stop;
            }
        }).withBatch(20));
        org.assertj.core.api.Assertions.assertThatThrownBy(mover::run).isSameAs(stop);
        io.delayq.layout.Layout layout = Replies.await(f.orders().protocol().refreshLayout(), Duration.ofSeconds(5));
        assertThat(layout.migrating()).isTrue();
        assertThat(layout.from()).isEqualTo(SampleQueue.SHARDS);
        assertThat(layout.moved()).as("the first pass moved tasks").isPositive();
        assertThat(layout.left()).as("and counted what is left").isNotNegative();

        browser.open(page("#/q/" + Q));
        assertThat(browser.text("#reshard")).startsWith("Resharding from " + SampleQueue.SHARDS + " to " + to + " shards (layout epoch " + layout.epoch() + ")")
                .contains(String.format(java.util.Locale.US, "%,d moved, about %,d left to look at or move", layout.moved(), layout.left()))
                .contains("delayq reshard " + Q + " --to " + to);
        WebElement progress = browser.find("#reshard-progress");
        assertThat(progress.getAttribute("value")).isEqualTo(String.valueOf(layout.moved()));
        assertThat(progress.getAttribute("max")).isEqualTo(String.valueOf(layout.moved() + layout.left()));
        assertThat(browser.text("h1 .badge.resharding")).isEqualTo("resharding " + SampleQueue.SHARDS + " → " + to);
        // every shard of the new layout is listed, the added ones marked as such, with what Redis holds on each
        assertThat(browser.all("#shards tbody tr")).hasSize(to);
        for (int shard = 0; shard < to; shard++) {
            WebElement row = browser.find("#shards tr[data-shard='" + shard + "']");
            assertThat(row.findElements(org.openqa.selenium.By.cssSelector("[data-col='new']"))).as("shard %d marked new", shard)
                    .hasSize(shard >= SampleQueue.SHARDS ? 1 : 0);
            assertThat(cell(row, "dead")).as("shard %d", shard).isEqualTo(String.valueOf(f.zcard(keys(shard).dead())));
        }
        browser.fitPage(1280);
        browser.screenshot(SHOTS.resolve("console-reshard.png"));

        browser.open(page("#/"));
        WebElement row = browser.find("tr[data-queue='" + Q + "']");
        assertThat(cell(row, "paused")).isEqualTo("running resharding " + SampleQueue.SHARDS + " → " + to);
        assertThat(row.findElement(org.openqa.selenium.By.cssSelector("td:nth-child(2)")).getText()).isEqualTo(String.valueOf(to));
        assertThat(cell(browser.find("tr[data-queue='coupons']"), "paused")).as("a queue not being resharded").isEqualTo("running");
    }

    @Test
    void errorsRenderAsErrors() throws Exception {
        browser.open(page("#/q/" + Q + "/tasks?state=due&cursor=not-a-cursor"));
        assertThat(browser.text("#error .field")).isEqualTo("cursor");
        assertThat(browser.text("#error")).contains("Error 400").contains("is not a cursor");
        browser.screenshot(SHOTS.resolve("console-error.png"));

        browser.open(page("#/q/" + Q + "/tasks?state=due&limit=100000"));
        assertThat(browser.text("#error")).contains("limit").contains("must be between 1 and 500");

        browser.open(page("#/q/no-such-queue"));
        assertThat(browser.text("#error")).contains("Error 404").contains("no queue 'no-such-queue'");

        browser.open(page("#/q/" + Q + "/task/never-enqueued"));
        assertThat(browser.text("#error")).contains("no task 'never-enqueued'");
    }

    @Test
    void onAPhoneThePageFitsTheScreen() throws Exception {
        browser.close();
        browser = Browser.start(390, 844);
        browser.open(page("#/q/" + Q));
        Number width = (Number) browser.driver().executeScript("return document.documentElement.scrollWidth");
        assertThat(width.intValue()).as("no sideways scrolling of the page (wide tables scroll in their own box)").isLessThanOrEqualTo(390);
        assertThat(browser.text("#t-due b")).isEqualTo(String.valueOf(f.filled().due()));
        browser.screenshot(SHOTS.resolve("console-phone.png"));
    }

    @Test
    void theKeyboardReachesTheFilterAndTheConfirmDialog() throws Exception {
        signIn();
        browser.open(page("#/q/" + Q + "/tasks?state=scheduled"));
        browser.driver().findElement(org.openqa.selenium.By.tagName("body")).sendKeys("/");
        assertThat(browser.driver().switchTo().activeElement().getAttribute("id")).isEqualTo("f-prefix");
        browser.driver().switchTo().activeElement().sendKeys("order-1029\n");
        await().atMost(Duration.ofSeconds(5)).until(() -> ids().equals(List.of("order-10290", "order-10291", "order-10292", "order-10293",
                "order-10294", "order-10295", "order-10296", "order-10297", "order-10298", "order-10299")));

        browser.open(page("#/q/" + Q));
        browser.find("#pause").click();
        browser.find("#confirm[open]");
        assertThat(browser.driver().switchTo().activeElement().getAttribute("id")).as("the safe choice has the focus").isEqualTo("confirm-no");
        browser.driver().switchTo().activeElement().sendKeys(org.openqa.selenium.Keys.ESCAPE);
        browser.find("#notice");
        assertThat(f.shardPaused(0)).isFalse();
    }
}
