"""The outbox helpers write delayq_outbox rows in the caller's transaction, on a real PostgreSQL through psycopg2:
committed rows carry the Java library's columns, a rolled-back transaction leaves none, bad input writes nothing."""
import json
import unittest
from datetime import datetime, timedelta, timezone

from delayq import DuplicatePolicy, InvalidInputException, Priority
from delayq.outbox import Outbox

from .postgres_server import WithPostgres

COLUMNS = "op, queue, task_id, due_at, payload, priority, dedup, options, extract(epoch FROM due_at - created_at)"
TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


class OutboxTest(WithPostgres, unittest.TestCase):
    orders = Outbox("orders")

    def rows(self):
        return self.pg.run(f"SELECT {COLUMNS} FROM delayq_outbox ORDER BY seq")

    def count(self):
        return self.pg.run("SELECT count(*) FROM delayq_outbox")[0][0]

    def test_rows_are_written_in_the_callers_transaction_and_seen_by_others_only_after_its_commit(self):
        due = datetime(2100, 1, 1, tzinfo=timezone.utc)
        conn = self.pg.connect()
        self.addCleanup(conn.close)
        with conn.cursor() as cur:
            cur.execute("CREATE TEMP TABLE orders (id int, status text)")
            cur.execute("INSERT INTO orders VALUES (1, 'unpaid')")
            self.orders.enqueue(cur, "order-1-timeout", due_at=due, payload='{"order":1}', priority=Priority.HIGH,
                                max_attempts=3, dedup=DuplicatePolicy.KEEP_EARLIER)
            self.orders.reschedule(cur, "order-2-timeout", delay=timedelta(minutes=30))
        self.orders.cancel(conn, "order-3-timeout")  # a connection works too: the row goes in its transaction
        self.assertEqual(self.count(), 0, "not committed yet")
        conn.commit()
        enqueue, reschedule, cancel = self.rows()
        self.assertEqual(enqueue[:8], ("enqueue", "orders", "order-1-timeout", due, '{"order":1}', 1, "keep-earlier",
                                       '{"maxAttempts":3}'))
        self.assertEqual(reschedule[:3], ("reschedule", "orders", "order-2-timeout"))
        self.assertAlmostEqual(float(reschedule[8]), 1800, delta=1.0, msg="a delay counts from the transaction's now()")
        self.assertEqual(cancel[:4], ("cancel", "orders", "order-3-timeout", None), "a cancel has no due time")
        self.assertEqual(cancel[5:8], (0, "reject", None))

    def test_a_rolled_back_transaction_leaves_no_row(self):
        conn = self.pg.connect()
        self.addCleanup(conn.close)
        with conn.cursor() as cur:
            self.orders.enqueue(cur, "order-9-timeout", delay=timedelta(minutes=30))
        conn.rollback()
        self.assertEqual(self.count(), 0)

    def test_the_helpers_never_commit(self):
        conn = self.pg.connect()
        self.addCleanup(conn.close)
        self.orders.enqueue(conn, "order-10-timeout")
        conn.close()  # closing without a commit discards the transaction
        self.assertEqual(self.count(), 0)

    def test_every_option_travels_in_the_columns_the_relay_reads(self):
        conn = self.pg.connect()
        self.addCleanup(conn.close)
        expires = datetime(2100, 1, 2, tzinfo=timezone.utc)
        with conn.cursor() as cur:
            self.orders.enqueue(cur, "invoice-7", due_at=4102444800000, dedup="once", group="tenant-42",
                                expires_at=expires, on_expiry="discard", max_attempts=5, backoff=timedelta(seconds=2),
                                backoff_max=timedelta(minutes=1), backoff_multiplier=3.0, traceparent=TRACEPARENT,
                                tracestate="vendor=1")
            self.orders.enqueue(cur, "now-1")
        conn.commit()
        full, now = self.rows()
        self.assertEqual(full[3], datetime(2100, 1, 1, tzinfo=timezone.utc))
        self.assertEqual(full[4:7], (None, 0, "once"))
        self.assertEqual(full[7], '{"expiresAt":4102531200000,"onExpiry":"discard","maxAttempts":5,"backoffMs":2000,'
                                  '"backoffMaxMs":60000,"backoffMultiplier":3,"traceparent":"' + TRACEPARENT
                         + '","tracestate":"vendor=1","group":"tenant-42"}')
        self.assertEqual(json.loads(full[7])["group"], "tenant-42")
        self.assertEqual(now[6:8], ("reject", None))
        self.assertAlmostEqual(float(now[8]), 0, delta=1.0, msg="no delay: due at the transaction's now()")

    def test_bad_input_is_refused_naming_the_field_before_anything_is_written(self):
        with self.assertRaisesRegex(InvalidInputException, "^queue: "):
            Outbox("no spaces allowed")
        with self.assertRaisesRegex(InvalidInputException, "^maxPayloadBytes: "):
            Outbox("orders", max_payload_bytes=0)
        conn = self.pg.connect()
        self.addCleanup(conn.close)
        small = Outbox("orders", max_payload_bytes=8)
        past = datetime.now(timezone.utc) - timedelta(hours=1)
        cases = [
            ("id", "must not be empty", lambda cur: self.orders.cancel(cur, "")),
            ("id", "must be at most 256 bytes of UTF-8, got 257", lambda cur: self.orders.enqueue(cur, "x" * 257)),
            ("expiresAt", "is in the past",
             lambda cur: self.orders.enqueue(cur, "x", due_at=past - timedelta(hours=1), expires_at=past)),
            ("expiresAt", "must be after the task's due time (now + delay)",
             lambda cur: self.orders.enqueue(cur, "x", delay=timedelta(hours=2),
                                             expires_at=datetime.now(timezone.utc) + timedelta(hours=1))),
            ("dedup", "must be reject, replace, keep-earlier, future-only or once, got 'sometimes'",
             lambda cur: self.orders.enqueue(cur, "x", dedup="sometimes")),
            ("priority", "must be 0 (normal), 1 (high) or 2 (highest), got 3",
             lambda cur: self.orders.enqueue(cur, "x", priority=3)),
            ("group", "cannot be combined with priority 1",
             lambda cur: self.orders.enqueue(cur, "x", group="t-1", priority=1)),
            ("group", "may hold only ASCII letters", lambda cur: self.orders.enqueue(cur, "x", group="a b")),
            ("payload", "must be at most 8 bytes of UTF-8 (the relay's maxPayloadBytes), got 9",
             lambda cur: small.enqueue(cur, "x", payload="123456789")),
            ("delay", "must not be negative", lambda cur: self.orders.enqueue(cur, "x", delay=timedelta(seconds=-1))),
            ("dueAt", "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z",
             lambda cur: self.orders.reschedule(cur, "x", due_at=-1)),
            ("schedule", "give a delay or a due time (dueAt), not both",
             lambda cur: self.orders.reschedule(cur, "x", delay=timedelta(1), due_at=past)),
            ("maxAttempts", "must be 1 to 1000, got 0", lambda cur: self.orders.enqueue(cur, "x", max_attempts=0)),
            ("traceparent", "must be a W3C traceparent", lambda cur: self.orders.enqueue(cur, "x", traceparent="nope")),
            ("connection", "must not be None", lambda cur: self.orders.enqueue(None, "x")),
            ("connection", "must be a DB-API 2.0 connection or cursor", lambda cur: self.orders.cancel(object(), "x")),
        ]
        for field, rule, call in cases:
            with self.subTest(field=field, rule=rule):
                with conn.cursor() as cur:
                    with self.assertRaises(InvalidInputException) as caught:
                        call(cur)
                    self.assertEqual(caught.exception.field, field)
                    self.assertTrue(caught.exception.rule.startswith(rule), caught.exception.rule)
                conn.commit()  # whatever a refused call had written would be committed now
        self.assertEqual(self.count(), 0)


class Psycopg3OutboxTest(WithPostgres, unittest.TestCase):
    """The same rows through psycopg 3, which sends the parameters apart from the statement (server-side binding)."""
    orders = Outbox("orders")

    def test_rows_are_committed_with_the_business_row_or_rolled_back_with_it(self):
        conn = self.pg.connect3()
        self.addCleanup(conn.close)
        with conn.cursor() as cur:
            self.orders.enqueue(cur, "order-1-timeout", delay=timedelta(minutes=30), payload="p", dedup="once",
                                max_attempts=2)
            self.orders.reschedule(cur, "order-1-timeout", due_at=datetime(2100, 1, 1, tzinfo=timezone.utc))
        self.orders.cancel(conn, "order-1-timeout")  # psycopg 3's connection, through a cursor of its own
        conn.commit()
        with conn.cursor() as cur:
            self.orders.enqueue(cur, "order-2-timeout")
        conn.rollback()
        rows = self.pg.run(f"SELECT {COLUMNS} FROM delayq_outbox ORDER BY seq")
        self.assertEqual([r[:3] for r in rows], [("enqueue", "orders", "order-1-timeout"),
                                                 ("reschedule", "orders", "order-1-timeout"),
                                                 ("cancel", "orders", "order-1-timeout")])
        self.assertEqual(rows[0][4:8], ("p", 0, "once", '{"maxAttempts":2}'))
        self.assertAlmostEqual(float(rows[0][8]), 1800, delta=1.0)
        self.assertEqual(rows[1][3], datetime(2100, 1, 1, tzinfo=timezone.utc))
        self.assertIsNone(rows[2][3])


if __name__ == "__main__":
    unittest.main()
