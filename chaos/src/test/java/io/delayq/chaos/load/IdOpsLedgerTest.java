package io.delayq.chaos.load;

import io.delayq.chaos.load.IdOpsLedger.Kind;
import io.delayq.chaos.load.IdOpsLedger.Op;
import io.delayq.chaos.recorder.Execution;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The judge of rescheduled and cancelled tasks: which due time holds when, and what counts as run after a cancel. */
class IdOpsLedgerTest {
    @Test
    void theDueTimeInForceIsTheLastAnsweredRescheduleAndUnknownWhileOneIsInProgress() {
        IdOpsLedger ledger = new IdOpsLedger();
        ledger.record("a", new Op(Kind.RESCHEDULE, 100, 110, "rescheduled", 5_000));
        ledger.record("a", new Op(Kind.RESCHEDULE, 200, 260, "rescheduled", 900));
        ledger.record("a", new Op(Kind.RESCHEDULE, 300, 310, "inflight", 0));

        assertThat(ledger.dueInForce("a", 1_000, 50)).as("before any reschedule: the enqueue's").isEqualTo(1_000);
        assertThat(ledger.dueInForce("a", 1_000, 105)).as("while the first is on its way").isEqualTo(Long.MIN_VALUE);
        assertThat(ledger.dueInForce("a", 1_000, 150)).isEqualTo(5_000);
        assertThat(ledger.dueInForce("a", 1_000, 270)).isEqualTo(900);
        assertThat(ledger.dueInForce("a", 1_000, 400)).as("a refused reschedule changes nothing").isEqualTo(900);
        assertThat(ledger.finalDue("a", 1_000)).containsExactly(900, 260);
        assertThat(ledger.dueInForce("b", 7, 400)).as("never rescheduled").isEqualTo(7);
    }

    @Test
    void anExecutionThatStartsAfterASuccessfulCancelIsCaughtOneBeforeItIsNot() {
        IdOpsLedger ledger = new IdOpsLedger();
        ledger.record("a", new Op(Kind.CANCEL, 100, 120, "cancelled", 0));
        ledger.record("b", new Op(Kind.CANCEL, 100, 120, "inflight", 0));
        ledger.record("c", new Op(Kind.CANCEL, 100, 400, "gone", 0));
        Execution aBefore = new Execution("a", 1, 0, 90, 95, 1);
        Execution aAfter = new Execution("a", 2, 0, 121, 130, 1);
        Execution bAfter = new Execution("b", 1, 0, 500, 510, 1);
        Execution cAfter = new Execution("c", 1, 0, 401, 410, 1);

        assertThat(ledger.firedAfterCancel(List.of(aBefore, aAfter, bAfter, cAfter))).containsExactly(aAfter, cAfter);
        assertThat(ledger.cancelled("a")).isTrue();
        assertThat(ledger.cancelled("b")).isFalse();
        assertThat(ledger.maybeCancelled("c")).isTrue();
        assertThat(ledger.count(Kind.CANCEL, "cancelled")).isEqualTo(1);
        assertThat(ledger.outcomes()).containsEntry("cancel gone", 1L).containsEntry("cancel inflight", 1L);
    }
}
