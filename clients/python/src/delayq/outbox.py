"""Task operations written to the delayq outbox table in the caller's own database transaction.

A row of ``delayq_outbox`` reaches Redis (through the relay, docs/outbox.md) if and only if the transaction
that wrote it commits, so an order and its timeout are stored together or not at all::

    from datetime import timedelta
    from delayq.outbox import Outbox

    orders = Outbox("orders")
    with conn.cursor() as cur:                       # psycopg2 or psycopg 3; any DB-API 2.0 driver with %s
        cur.execute("INSERT INTO orders (id, status) VALUES (%s, 'unpaid')", (8812,))
        orders.enqueue(cur, "order-8812-timeout", delay=timedelta(minutes=30),
                       payload='{"action":"cancel-if-unpaid"}', dedup="once")
    conn.commit()                                    # both rows, or neither

Nothing here commits, rolls back or changes autocommit: the caller's transaction decides. Bad input raises
:class:`~delayq.InvalidInputException` (the Java library's fields and rules) before anything is written. A delay
becomes a due time in the database (``now()`` of the transaction plus the delay), as the Java library does.
No database driver is imported: the functions take the caller's connection or cursor.
"""
from __future__ import annotations

import json
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Optional, Sequence, Union

from . import protocol
from .errors import InvalidInputException
from .model import DueAt, DuplicatePolicy, Task

#: the relay's default maxPayloadBytes (a bigger payload would be quarantined by the relay)
DEFAULT_MAX_PAYLOAD_BYTES = protocol.DEFAULT_MAX_PAYLOAD_BYTES
#: the dedup column's values (core's DuplicatePolicy wire names)
DEDUP_POLICIES = ("reject", "replace", "keep-earlier", "future-only", "once")

_INSERT = ("INSERT INTO delayq_outbox (op, queue, task_id, due_at, payload, priority, dedup, options) "
           "VALUES (%s, %s, %s, COALESCE(%s::timestamptz, now() + %s::bigint * interval '1 millisecond'), "
           "%s, %s, %s, %s)")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def require_dedup(dedup: Any) -> str:
    """A dedup policy by its wire name (``"once"``) or a :class:`~delayq.DuplicatePolicy` member."""
    wire = dedup.value if isinstance(dedup, DuplicatePolicy) else dedup
    if isinstance(wire, str) and wire in DEDUP_POLICIES:
        return wire
    raise InvalidInputException("dedup", "must be reject, replace, keep-earlier, future-only or once, got "
                                + ("null" if dedup is None else repr(dedup)))


class Outbox:
    """The outbox operations of one queue. ``max_payload_bytes`` should be the relay's (default 65536)."""

    def __init__(self, queue: str, *, max_payload_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES) -> None:
        self._queue = protocol.require_queue(queue)
        mpb = max_payload_bytes
        if isinstance(mpb, bool) or not isinstance(mpb, int) or mpb < 1 or mpb > 512 * 1024 * 1024:
            raise InvalidInputException("maxPayloadBytes", f"must be between 1 and 536870912, got {mpb}")
        self._max_payload_bytes = mpb

    @property
    def queue(self) -> str:
        return self._queue

    def enqueue(self, db: Any, task_id: str, *, delay: Optional[timedelta] = None, due_at: Optional[DueAt] = None,
                payload: Optional[str] = None, priority: int = 0,
                dedup: Union[DuplicatePolicy, str] = "reject", group: Optional[str] = None, **options: Any) -> None:
        """Schedules the task when ``db``'s transaction commits: after ``delay`` (from the transaction's ``now()``)
        or at ``due_at`` (aware datetime or epoch ms); neither: due now. ``dedup`` is what a task with the same id
        already in Redis meets: ``reject`` (default), ``replace``, ``keep-earlier``, ``future-only`` or ``once``.
        ``group`` puts the task in a group (priority 0 only). ``options`` are the per-task options of
        :class:`~delayq.Task` (``expires_at``, ``on_expiry``, ``max_attempts``, ``backoff``, ``backoff_max``,
        ``backoff_multiplier``, ``traceparent``, ``tracestate``)."""
        task_id = protocol.require_id(task_id)
        now_ms = int(time.time() * 1000)
        timing, ms = protocol.schedule(delay, due_at, now_ms)
        payload = protocol.require_payload(payload, self._max_payload_bytes, "the relay's maxPayloadBytes")
        level = protocol.require_priority(priority)
        wire = require_dedup(dedup)
        group = protocol.require_group(group)
        protocol.require_group_priority(group, level)
        try:
            task = Task(task_id, delay, due_at, payload, level, **options)
        except TypeError as e:
            raise InvalidInputException("options", f"unknown per-task option ({e})") from None
        fields = protocol.task_options(task, timing, ms, now_ms)
        if group is not None:
            fields["group"] = group
        encoded = json.dumps(fields, separators=(",", ":"), ensure_ascii=False) if fields else None
        self._insert(db, "enqueue", task_id, timing, ms, payload, level, wire, encoded)

    def cancel(self, db: Any, task_id: str) -> None:
        """Cancels the task when ``db``'s transaction commits (after every earlier outbox row of the same id)."""
        self._insert(db, "cancel", protocol.require_id(task_id), None, None, None, 0, "reject", None)

    def reschedule(self, db: Any, task_id: str, *, delay: Optional[timedelta] = None,
                   due_at: Optional[DueAt] = None) -> None:
        """Moves the task when ``db``'s transaction commits: after ``delay`` (from the transaction's ``now()``) or
        at ``due_at``; neither: due now."""
        task_id = protocol.require_id(task_id)
        timing, ms = protocol.schedule(delay, due_at, int(time.time() * 1000))
        self._insert(db, "reschedule", task_id, timing, ms, None, 0, "reject", None)

    def _insert(self, db: Any, op: str, task_id: str, timing: Optional[str], ms: Optional[int],
                payload: Optional[str], priority: int, dedup: str, options: Optional[str]) -> None:
        at = _EPOCH + timedelta(milliseconds=ms) if timing == "at" and ms is not None else None
        delay_ms = None if timing is None else (0 if timing == "at" else ms)
        execute(db, _INSERT, (op, self._queue, task_id, at, delay_ms, payload, priority, dedup, options))


def execute(db: Any, sql: str, params: Sequence[Any]) -> None:
    """Runs one statement on the caller's connection (in a cursor of its own, closed after) or cursor."""
    if db is None:
        raise InvalidInputException("connection", "must not be None")
    if callable(getattr(db, "cursor", None)):
        cur = db.cursor()
        try:
            cur.execute(sql, params)
        finally:
            cur.close()
    elif callable(getattr(db, "execute", None)):
        db.execute(sql, params)
    else:
        raise InvalidInputException("connection", "must be a DB-API 2.0 connection or cursor (with cursor() or "
                                                  f"execute()), got {type(db).__name__}")
