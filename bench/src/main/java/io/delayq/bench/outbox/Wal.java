package io.delayq.bench.outbox;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** PostgreSQL's write-ahead log position in bytes: the difference over a phase is the WAL that phase wrote. */
public final class Wal {
    private Wal() {
    }

    public static long position(Connection db) throws SQLException {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
