package io.delayq.outbox.backstop;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a database connection ({@code dataSource::getConnection}); the caller closes it. */
@FunctionalInterface
public interface ConnectionSource {
    Connection open() throws SQLException;
}
