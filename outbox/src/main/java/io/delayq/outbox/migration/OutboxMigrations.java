package io.delayq.outbox.migration;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates and upgrades the outbox tables from the versioned scripts in {@code db/migration}
 * ({@code V<n>__<description>.sql}), each applied once and recorded in {@code delayq_outbox_migrations}.
 * The scripts are plain SQL, so a team that runs Flyway or Liquibase can copy them into its own
 * migrations instead and never call this class.
 */
public final class OutboxMigrations {
    /** The scripts in the order they apply; a new version is appended here and never edited after release. */
    static final List<String> SCRIPTS = List.of("V1__delayq_outbox.sql");
    /** Serializes concurrent migrators (several relays starting at once) within one database. */
    private static final long LOCK_KEY = 0x64656c6179716f62L; // "delayqob"

    private OutboxMigrations() {
    }

    /**
     * Applies the scripts this database has not seen, in one transaction (PostgreSQL runs DDL
     * transactionally); returns the versions applied now.
     */
    public static List<Integer> migrate(Connection connection) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
            st.execute("CREATE TABLE IF NOT EXISTS delayq_outbox_migrations ("
                    + "version int PRIMARY KEY, script text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
            List<Integer> applied = new ArrayList<>();
            for (String script : SCRIPTS) {
                int version = version(script);
                if (!isApplied(connection, version)) {
                    st.execute(read(script));
                    try (PreparedStatement record = connection.prepareStatement(
                            "INSERT INTO delayq_outbox_migrations (version, script) VALUES (?, ?)")) {
                        record.setInt(1, version);
                        record.setString(2, script);
                        record.executeUpdate();
                    }
                    applied.add(version);
                }
            }
            connection.commit();
            return applied;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static boolean isApplied(Connection connection, int version) throws SQLException {
        try (PreparedStatement q = connection.prepareStatement("SELECT 1 FROM delayq_outbox_migrations WHERE version = ?")) {
            q.setInt(1, version);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next();
            }
        }
    }

    static int version(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
    }

    /** The text of a script, for teams that apply it with their own tool. */
    public static String read(String script) {
        try (InputStream in = OutboxMigrations.class.getClassLoader().getResourceAsStream("db/migration/" + script)) {
            if (in == null) {
                throw new IllegalStateException("migration script db/migration/" + script + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
