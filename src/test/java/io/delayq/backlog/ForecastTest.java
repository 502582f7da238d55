package io.delayq.backlog;

import io.delayq.InvalidInputException;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The due forecast counts the waiting tasks by when they fall due, across priorities and groups, and never the backlog. */
class ForecastTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue queue = TestQueue.eachTest(redis, "ahead", 4);

    private ForecastReader reader() {
        return new ForecastReader(queue.protocol().scope());
    }

    @Test
    void eachWindowCountsTheTasksDueWithinItAcrossPrioritiesAndGroups() {
        Instant now = Instant.ofEpochMilli(queue.serverNow());
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            tasks.add(TaskSpec.of("soon-" + i).at(now.plusSeconds(30)).priority(i % 3));  // within 1 minute
        }
        for (int i = 0; i < 20; i++) {
            tasks.add(TaskSpec.of("wave-" + i).at(now.plus(Duration.ofMinutes(4))).group("tenant-" + (i % 4)));  // within 5
        }
        for (int i = 0; i < 10; i++) {
            tasks.add(TaskSpec.of("later-" + i).at(now.plus(Duration.ofMinutes(50))));  // within 60
        }
        tasks.add(TaskSpec.of("tomorrow").at(now.plus(Duration.ofDays(1))));  // beyond every window
        for (int i = 0; i < 7; i++) {
            tasks.add(TaskSpec.of("overdue-" + i).at(now.minusSeconds(60)));  // the backlog: in no window
        }
        queue.client().enqueueAll(tasks);

        DueForecast f = sync(reader().forecast(IntStream.range(0, 4), DueForecast.DEFAULT_WINDOWS));

        assertThat(f.dueWithin(Duration.ofMinutes(1))).isEqualTo(30);
        assertThat(f.dueWithin(Duration.ofMinutes(5))).isEqualTo(50);
        assertThat(f.dueWithin(Duration.ofMinutes(15))).isEqualTo(50);
        assertThat(f.dueWithin(Duration.ofMinutes(60))).isEqualTo(60);
        assertThat(f.nextDueAt()).isEqualTo(now.plusSeconds(30).toEpochMilli());
        assertThat(f.at()).isGreaterThanOrEqualTo(now.toEpochMilli());
    }

    @Test
    void theQueueForecastIsTheSumOfItsShardsAndTheEarliestNextDue() {
        Instant now = Instant.ofEpochMilli(queue.serverNow());
        for (int i = 0; i < 40; i++) {
            queue.client().enqueue(TaskSpec.of("t-" + i).at(now.plusSeconds(10L + i * 60)));
        }
        List<DueForecast> shards = IntStream.range(0, 4).mapToObj(s -> sync(reader().forecast(s, DueForecast.DEFAULT_WINDOWS))).toList();
        DueForecast whole = sync(reader().forecast(IntStream.range(0, 4), DueForecast.DEFAULT_WINDOWS));

        for (Duration w : DueForecast.DEFAULT_WINDOWS) {
            assertThat(whole.dueWithin(w)).isEqualTo(shards.stream().mapToLong(s -> s.dueWithin(w)).sum());
        }
        assertThat(whole.dueWithin(Duration.ofMinutes(60))).isEqualTo(40);
        assertThat(whole.nextDueAt()).isEqualTo(now.plusSeconds(10).toEpochMilli())
                .isEqualTo(shards.stream().filter(s -> s.nextDueAt() >= 0).mapToLong(DueForecast::nextDueAt).min().orElseThrow());
    }

    @Test
    void aQueueWithNothingAheadHasNoNextDueAndEmptyWindows() {
        queue.client().enqueue(TaskSpec.of("late").at(Instant.ofEpochMilli(queue.serverNow()).minusSeconds(5)));

        DueForecast f = sync(reader().forecast(IntStream.range(0, 4), DueForecast.DEFAULT_WINDOWS));

        assertThat(f.nextDue()).isEmpty();
        assertThat(f.windows()).allSatisfy(w -> assertThat(w.tasks()).isZero());
    }

    @Test
    void windowsMustBePositiveAscendingAndFew() {
        assertThatThrownBy(() -> reader().forecast(0, List.of(Duration.ofMinutes(5), Duration.ofMinutes(1))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("windows").hasMessageContaining("ascending");
        assertThatThrownBy(() -> reader().forecast(0, List.of(Duration.ZERO)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("positive");
        assertThatThrownBy(() -> reader().forecast(0, List.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("1 to " + ForecastReader.MAX_WINDOWS);
    }
}
