package io.delayq.outbox.relay;

import io.delayq.outbox.row.OutboxRow;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A relay that dies at one point of its first round: its database session is terminated (the server rolls
 * its transaction back as after a kill -9) and its thread is left hanging there, never to go on.
 */
final class AbandonedRelay implements RelayHook {
    enum Point { AFTER_CLAIM, AFTER_REDIS }

    private final Point point;
    private final CountDownLatch died = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    AbandonedRelay(Point point) {
        this.point = point;
    }

    @Override
    public void claimed(Connection claimant, List<OutboxRow> rows) throws SQLException {
        if (point == Point.AFTER_CLAIM) {
            die(claimant);
        }
    }

    @Override
    public void appliedToRedis(Connection claimant, List<OutboxRow> rows) throws SQLException {
        if (point == Point.AFTER_REDIS) {
            die(claimant);
        }
    }

    private void die(Connection claimant) {
        try (Statement st = claimant.createStatement()) {
            st.execute("SELECT pg_terminate_backend(pg_backend_pid())");
        } catch (SQLException expected) {
            // the session is gone: that is the point
        }
        died.countDown();
        try {
            released.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("this relay died in its first round");
    }

    boolean died() {
        return died.getCount() == 0;
    }

    /** Lets the hanging thread end (after the test), so the relay can be closed. */
    void release() {
        released.countDown();
    }
}
