"""The values the producer API takes and answers (mirrors of the Java client's records and enums)."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import List, Optional, Union

#: When a task is due: an aware datetime, or epoch milliseconds
DueAt = Union[datetime, int]


class Priority(enum.IntEnum):
    """When due tasks pile up, higher levels are claimed first; priority never makes a task fire early."""
    NORMAL = 0
    HIGH = 1
    HIGHEST = 2


class DuplicatePolicy(enum.Enum):
    """What an enqueue does when a task with the same id exists (the values are the scripts' wire names)."""
    REJECT = "reject"
    REPLACE = "replace"
    KEEP_EARLIER = "keep-earlier"
    #: replace a waiting task and push its due time, never past the burst's first enqueue + ``debounce_max_wait``
    #: (every task needs it); a task in flight answers INFLIGHT and nothing is written
    DEBOUNCE = "debounce"


class EnqueueStatus(enum.Enum):
    ADDED = "added"
    DUPLICATE = "duplicate"
    REPLACED = "replaced"
    EARLIER = "earlier"
    KEPT = "kept"
    INFLIGHT = "inflight"
    DEAD = "dead"
    #: refused in every policy: the id's dedup window runs until ``due_at``
    WINDOW = "window"


class CancelResult(enum.Enum):
    CANCELLED = "cancelled"
    IN_FLIGHT = "inflight"
    UNKNOWN = "unknown"


class RescheduleStatus(enum.Enum):
    RESCHEDULED = "rescheduled"
    IN_FLIGHT = "inflight"
    DEAD = "dead"
    UNKNOWN = "unknown"


class TaskState(enum.Enum):
    SCHEDULED = "scheduled"
    IN_FLIGHT = "inflight"
    DEAD = "dead"
    SUCCEEDED = "succeeded"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Task:
    """A task to enqueue: due after ``delay`` (measured on the Redis server's clock) or at ``due_at``;
    neither means due now.

    Per-task options (all optional, stored in the record; docs/protocol.md "Per-task options"):
    ``expires_at`` (datetime or epoch ms: not run if not started by then) with ``on_expiry``
    ("dead-letter", the default, or "discard"); ``max_attempts``, ``backoff``, ``backoff_max``,
    ``backoff_multiplier`` instead of the worker's retry settings; ``traceparent`` / ``tracestate``,
    the W3C trace context the worker's delivery span joins; ``dedup_window``: after the task is acked, cancelled
    or dead-lettered its id is refused (WINDOW) for this long; ``debounce_max_wait`` with the DEBOUNCE policy.

    ``group`` puts the task in a group (a tenant: claimed fairly against other groups, under their rate limit;
    docs/protocol.md "Groups"): 1 to 64 ASCII letters, digits and ``- _ . : @ /``, priority 0 only."""
    id: str
    delay: Optional[timedelta] = None
    due_at: Optional[DueAt] = None
    payload: Optional[str] = None
    priority: int = Priority.NORMAL
    expires_at: Optional[DueAt] = None
    on_expiry: Optional[str] = None
    max_attempts: Optional[int] = None
    backoff: Optional[timedelta] = None
    backoff_max: Optional[timedelta] = None
    backoff_multiplier: Optional[float] = None
    traceparent: Optional[str] = None
    tracestate: Optional[str] = None
    dedup_window: Optional[timedelta] = None
    debounce_max_wait: Optional[timedelta] = None
    group: Optional[str] = None


@dataclass(frozen=True)
class EnqueueResult:
    """What an enqueue did with one task, and its due time afterwards (epoch ms, server clock)."""
    id: str
    status: EnqueueStatus
    due_at: int

    @property
    def added(self) -> bool:
        return self.status is EnqueueStatus.ADDED


@dataclass(frozen=True)
class RescheduleResult:
    status: RescheduleStatus
    due_at: int


@dataclass(frozen=True)
class TaskRecord:
    """A stored record decoded (compact or JSON form)."""
    payload: Optional[str]
    enqueued_at: Optional[int]
    priority: int


@dataclass(frozen=True)
class TaskProgress:
    """How far a running task has got, as its handler last reported it: ``percent`` (0 to 100), ``note``
    ("" when none) and ``at``, when the worker wrote it (epoch ms, Redis clock)."""
    percent: float
    note: str
    at: int


@dataclass(frozen=True)
class TaskCompletion:
    """What is kept of a task after its ack while the queue keeps results (DELAYQ_RESULTS_KEEP): when it
    finished (``finished_at``, epoch ms, Redis clock), after how many ``attempts``, by which ``worker``, how
    long its handler ran (``handler_ms``), and a short ``result`` (at most 1 KiB; ``truncated`` when cut)."""
    finished_at: int
    attempts: int
    handler_ms: int
    worker: str
    result: str
    truncated: bool


@dataclass(frozen=True)
class TaskInfo:
    """Everything known about one task; ``score`` is the due time when SCHEDULED, the lease expiry when
    IN_FLIGHT, the time of death when DEAD and the time it finished when SUCCEEDED. ``progress`` is what the
    handler of an IN_FLIGHT task last reported (None when it reported nothing, and in every other state).
    ``completion`` is the completion record kept after an ack: the task's own when SUCCEEDED, an earlier
    run's beside a task of the same id enqueued again, None when none is kept."""
    id: str
    shard: int
    state: TaskState
    score: int
    priority: int
    attempts: int
    last_error: Optional[str]
    raw_record: Optional[str]
    server_now: int
    progress: Optional[TaskProgress] = None
    completion: Optional[TaskCompletion] = None

    @property
    def overdue(self) -> bool:
        return self.state is TaskState.SCHEDULED and self.score <= self.server_now

    @property
    def record(self) -> TaskRecord:
        from .protocol import decode_record
        return decode_record(self.raw_record)


@dataclass(frozen=True)
class ShardStats:
    shard: int
    server_now: int
    scheduled: int
    due: int
    inflight: int
    dead: int
    oldest_due_at: int

    @property
    def oldest_overdue_millis(self) -> int:
        return 0 if self.oldest_due_at < 0 else max(0, self.server_now - self.oldest_due_at)


@dataclass(frozen=True)
class QueueStats:
    queue: str
    shards: List[ShardStats] = field(default_factory=list)

    @property
    def scheduled(self) -> int:
        return sum(s.scheduled for s in self.shards)

    @property
    def due(self) -> int:
        return sum(s.due for s in self.shards)

    @property
    def inflight(self) -> int:
        return sum(s.inflight for s in self.shards)

    @property
    def dead(self) -> int:
        return sum(s.dead for s in self.shards)

    @property
    def oldest_overdue_millis(self) -> int:
        return max((s.oldest_overdue_millis for s in self.shards), default=0)
