package io.delayq.chaos;

import io.delayq.chaos.fleet.WorkerBinaries;
import io.delayq.chaos.report.Figures;
import io.delayq.chaos.report.ReliabilityReport;
import io.delayq.chaos.report.ScenarioResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shortened chaos run, in CI on every build (failsafe, after `package`: it starts the packaged
 * worker jar with the recorder jar). Asserts the suite's invariants on its figures: nothing Redis
 * acknowledged is lost, every duplicate execution carries a higher attempt (a re-delivery after a
 * lease expiry), no task runs twice at once without a lease expiry, readiness drops and recovers.
 */
class ChaosShortIT {
    @Test
    void shortRunLosesNothingAndEveryDuplicateIsALaterAttempt() throws Exception {
        Path root = Path.of(System.getProperty("delayq.repo.root", "..")).toAbsolutePath().normalize();
        Path out = Path.of(System.getProperty("delayq.chaos.out", "target/chaos-short"));
        ChaosContext ctx = new ChaosContext(WorkerBinaries.locate(root), out, System.nanoTime(), System.out);
        long t0 = System.currentTimeMillis();
        List<ScenarioResult> results = ChaosSuite.run(ChaosSuite.shortRun(), ctx);
        String section = ReliabilityReport.render("short", "ChaosShortIT (CI)", ctx.seed(), System.currentTimeMillis() - t0, results);
        // the report of the CI run stays in target/: CI does not rewrite the repository's docs
        ReliabilityReport.write(out.resolve("reliability.md"), "short", section);
        System.out.println(section);

        assertThat(results).extracting(ScenarioResult::key)
                .containsExactly("kill-fsync-always", "redis-sigstop", "cluster-kill-lagging-replica-acks", "reshard-grow", "upgrade-live",
                        "reshard-grow-p3");
        for (ScenarioResult r : results) {
            Figures f = r.figures();
            assertThat(f.lost()).as("%s: acknowledged tasks never executed", r.key()).isZero();
            assertThat(f.early()).as("%s: executions before the due time", r.key()).isZero();
            assertThat(f.concurrentWithoutExpiry()).as("%s: concurrent executions without a lease expiry", r.key()).isZero();
            assertThat(r.problems()).as("%s: broken invariants", r.key()).isEmpty();
        }
        // where Redis keeps every acknowledged write (AOF fsync always; a frozen but intact server), a task
        // runs again only after its lease expired: every duplicate carries a higher attempt, none repeats one.
        // A failover is different: the promoted replica may not have the last claims and acks, and the
        // attempt counter goes back with them, so the cluster run is held to "nothing lost" only.
        for (ScenarioResult r : List.of(results.get(0), results.get(1), results.get(3), results.get(4), results.get(5))) {
            assertThat(r.figures().repeatedAttempts()).as("%s: duplicates that repeat an attempt", r.key()).isZero();
        }
        ScenarioResult kill = results.get(0);
        assertThat(kill.events()).as("the faults injected").hasSize(3)
                .anyMatch(e -> e.contains("kill -9 Redis")).filteredOn(e -> e.contains("kill -9 worker")).hasSize(2);
        ScenarioResult pause = results.get(1);
        assertThat(pause.details().get("/readyz false after (per worker)")).doesNotContain("never");
        assertThat(pause.details().get("/readyz true again after SIGCONT (per worker)")).doesNotContain("never");
        ScenarioResult failover = results.get(2);
        assertThat(failover.details().get("first execution on those shards after the kill")).as("workers followed the failover")
                .isNotEqualTo("none");
        // the grow: every fault landed inside the move (else "problems" names the ones that did not), the mover was
        // killed and a later run finished it, and nothing ran after its cancel had succeeded
        // the same grow of a queue of protocol 3 (its buckets moved by protocol 3's move_out and move_in)
        for (ScenarioResult grow : List.of(results.get(3), results.get(5))) {
            assertThat(grow.events()).as(grow.key()).anyMatch(e -> e.contains("kill -9 the mover")).anyMatch(e -> e.contains("kill -9 Redis"))
                    .anyMatch(e -> e.contains("exited 0: resumed and finished")).filteredOn(e -> e.contains("kill -9 worker")).hasSize(2);
            assertThat(grow.details().get("executions after their cancel succeeded")).as(grow.key()).isEqualTo("0");
            assertThat(grow.details().get("layout afterwards")).as(grow.key()).startsWith("16 shards, history [4, 16]").endsWith("no migration running");
        }
        assertThat(results.get(5).details().get("protocol")).isEqualTo("3");
        // the upgrade: its first run killed, a worker killed, run again; after the drain nothing of protocol 2 is left
        ScenarioResult upgrade = results.get(4);
        assertThat(upgrade.events()).anyMatch(e -> e.contains("kill -9 the upgrade")).anyMatch(e -> e.contains("kill -9 worker"))
                .anyMatch(e -> e.contains("after the drain, the upgrade exited 0"));
        assertThat(upgrade.details().get("protocol afterwards")).isEqualTo("3");
    }
}
