package io.delayq.outbox.testing;

import io.delayq.localpostgres.LocalPostgres;
import io.delayq.outbox.migration.OutboxMigrations;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One real PostgreSQL per test class ({@link LocalPostgres}) with the outbox tables migrated; the outbox and
 * quarantine tables are emptied before every test. Without PostgreSQL installed the tests are skipped, or fail when
 * {@code CI=true}.
 */
public final class PostgresExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private LocalPostgres server;

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        if (!LocalPostgres.installed()) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(LocalPostgres.NOT_INSTALLED);
            }
            Assumptions.abort(LocalPostgres.NOT_INSTALLED);
        }
        server = LocalPostgres.start();
        try (Connection c = server.connect()) {
            OutboxMigrations.migrate(c);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws SQLException {
        try (Connection c = server.connect(); Statement st = c.createStatement()) {
            st.execute("TRUNCATE delayq_outbox, delayq_outbox_quarantine RESTART IDENTITY");
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
    }

    public LocalPostgres server() {
        return server;
    }

    public Connection connect() throws SQLException {
        return server.connect();
    }

    /** A one-value query's answer as a long. */
    public long count(String sql) throws SQLException {
        try (Connection c = server.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public void execute(String sql) throws SQLException {
        try (Connection c = server.connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
