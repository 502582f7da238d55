"""The delayq protocol, version 2, as pure functions: validation, shard math, keys, record encoding,
and the argument and reply layouts of core's scripts. No I/O: the sync and asyncio clients share it.

Everything here mirrors core's Java classes of the same job (``Sharding``, ``RecordBuckets``,
``ShardKeys``, ``TaskRecord``, ``QueueProtocol``); the interop tests hold the two to the same answers.
"""
from __future__ import annotations

import json
import re
import zlib
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from .errors import DelayQueueException, InvalidInputException
from .model import (CancelResult, DuplicatePolicy, EnqueueResult, EnqueueStatus, RescheduleResult, RescheduleStatus,
                    ShardStats, Task, TaskCompletion, TaskInfo, TaskProgress, TaskRecord, TaskState)

#: 2: records in bucketed hashes (tasks:<b>) and the compact record form
PROTOCOL_VERSION = 2
#: tasks per script call, well under Lua's unpack() limit (as the Java client)
MAX_PER_CALL = 500
MAX_SHARDS = 1024
MAX_ID_BYTES = 256
MAX_QUEUE_LENGTH = 40
RECORD_BUCKETS = 2039
#: 9999-12-31T23:59:59.999Z, exact as a double score
MAX_EPOCH_MILLIS = 253_402_300_799_999
DEFAULT_MAX_PAYLOAD_BYTES = 64 * 1024

_QUEUE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MS = timedelta(milliseconds=1)
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
#: per-task options (core's TaskOptions)
MIN_EPOCH_MILLIS = 946_684_800_000
MAX_ATTEMPTS = 1000
MAX_BACKOFF_MS = 30 * 24 * 3600 * 1000
MAX_TRACESTATE = 512
MAX_GROUP_BYTES = 64
#: the record's option fields, in the order core writes them
OPTION_FIELDS = ("expiresAt", "onExpiry", "maxAttempts", "backoffMs", "backoffMaxMs", "backoffMultiplier",
                 "traceparent", "tracestate", "group", "dedupWindowMs", "debounceMaxWaitMs")
#: the longest dedup window and debounce wait (core's TaskOptions.MAX_WINDOW_MS)
MAX_WINDOW_MS = 30 * 24 * 3600 * 1000
_TRACEPARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?", re.S)
_COMPACT_RULE = ("task record must be JSON (starting with '{') or compact "
                 "'<priority 0-2><enqueuedAt in base 36>:<payload>'")


# ---- validation (the Java client's rules and messages) ----

def require_queue(name: Any) -> str:
    if not isinstance(name, str) or name == "":
        raise InvalidInputException("queue", "must not be empty")
    if len(name) > MAX_QUEUE_LENGTH:
        raise InvalidInputException("queue", f"must be at most {MAX_QUEUE_LENGTH} characters, got {len(name)}")
    if not _QUEUE.fullmatch(name):
        raise InvalidInputException(
            "queue", "must be a lower-case DNS label (a-z, 0-9 and '-', starting and ending with a letter or digit), "
                     f"got '{name}'")
    return name


def require_shards(shards: Any) -> int:
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1 or shards > MAX_SHARDS:
        raise InvalidInputException("shards", f"must be between 1 and {MAX_SHARDS}, got {shards}")
    return shards


def _utf8(text: str, field: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInputException(field, "must be valid Unicode text (it holds a lone surrogate)") from None


def require_id(task_id: Any) -> str:
    if not isinstance(task_id, str) or task_id == "":
        raise InvalidInputException("id", "must not be empty" if task_id in (None, "") else
                                    f"must be a string, got {type(task_id).__name__}")
    size = len(_utf8(task_id, "id"))
    if size > MAX_ID_BYTES:
        raise InvalidInputException("id", f"must be at most {MAX_ID_BYTES} bytes of UTF-8, got {size}")
    return task_id


def require_priority(level: Any) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level < 0 or level > 2:
        raise InvalidInputException("priority", f"must be 0 (normal), 1 (high) or 2 (highest), got {level}")
    return int(level)


def require_payload(payload: Any, max_bytes: int, limit: str = "the client's maxPayloadBytes") -> Optional[str]:
    if payload is None:
        return None
    if not isinstance(payload, str):
        raise InvalidInputException("payload", f"must be text (str), got {type(payload).__name__}")
    size = len(_utf8(payload, "payload"))
    if size > max_bytes:
        raise InvalidInputException("payload", f"must be at most {max_bytes} bytes of UTF-8 ({limit}), got {size}")
    return payload


def require_group(group: Any) -> Optional[str]:
    """A task's group key (core's TaskGroup): 1 to 64 ASCII letters, digits and ``- _ . : @ /``; None: no group."""
    if group is None:
        return None
    if not isinstance(group, str):
        raise InvalidInputException("group", f"must be a string, got {type(group).__name__}")
    size = len(_utf8(group, "group"))
    shown = '"' + (group[:40] + "..." if len(group) > 40 else group) + '"'
    if size == 0:
        raise InvalidInputException("group", f"must be 1 to {MAX_GROUP_BYTES} characters (ASCII letters, digits and "
                                             "- _ . : @ /), got an empty string")
    if size > MAX_GROUP_BYTES:
        raise InvalidInputException("group", f"must be at most {MAX_GROUP_BYTES} bytes, got {size} ({shown})")
    for i, c in enumerate(group):
        if not (c.isascii() and (c.isalnum() or c in "-_.:@/")):
            what = f"U+{ord(c):04X}" if not 0x20 <= ord(c) <= 0x7e else f"'{c}'"
            raise InvalidInputException("group", f"may hold only ASCII letters, digits and - _ . : @ /, got {what} "
                                                 f"at offset {i} of {shown}")
    return group


def require_group_priority(group: Optional[str], level: int) -> None:
    """A grouped task has priority 0 (core's TaskSpec): groups are served round robin, each in due-time order."""
    if group is not None and level != 0:
        raise InvalidInputException("group", f"cannot be combined with priority {level}: a grouped task has "
                                             "priority 0 (groups are served round robin, each in due-time order)")


def require_policy(policy: Any) -> DuplicatePolicy:
    if isinstance(policy, DuplicatePolicy):
        return policy
    for p in DuplicatePolicy:
        if policy == p.value:
            return p
    raise InvalidInputException("duplicatePolicy", "must be one of reject, replace, keep-earlier, debounce, got "
                                + ("null" if policy is None else repr(policy)))


def schedule(delay: Optional[timedelta], due_at: Any, now_ms: int) -> Tuple[str, int]:
    """The script's (timing, ms): ("in", delay ms), measured from the Redis server's clock inside the script,
    or ("at", epoch ms). Neither given means due now."""
    if delay is not None and due_at is not None:
        raise InvalidInputException("schedule", "give a delay or a due time (dueAt), not both")
    if due_at is not None:
        return "at", due_at_millis(due_at)
    if delay is None:
        return "in", 0
    if not isinstance(delay, timedelta):
        raise InvalidInputException("delay", f"must be a datetime.timedelta, got {type(delay).__name__}")
    if delay < timedelta(0):
        raise InvalidInputException("delay", f"must not be negative, got {delay // _MS} ms")
    ms = delay // _MS
    if ms > MAX_EPOCH_MILLIS - now_ms:
        raise InvalidInputException("delay", f"puts the due time beyond 9999-12-31T23:59:59.999Z, got {ms} ms")
    return "in", ms


def due_at_millis(due_at: Any) -> int:
    if isinstance(due_at, datetime):
        if due_at.tzinfo is None or due_at.utcoffset() is None:
            raise InvalidInputException("dueAt", "must be a timezone-aware datetime (a naive one names no instant), "
                                                 f"got {due_at.isoformat()}")
        ms = (due_at - _EPOCH) // _MS
        shown = due_at.isoformat()
    elif isinstance(due_at, int) and not isinstance(due_at, bool):
        ms, shown = due_at, f"{due_at} ms"
    else:
        raise InvalidInputException("dueAt", f"must be a datetime or epoch milliseconds (int), got {type(due_at).__name__}")
    if ms < 0 or ms > MAX_EPOCH_MILLIS:
        raise InvalidInputException("dueAt", f"must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got {shown}")
    return ms


def _instant(ms: int) -> str:
    """Epoch ms as Java's Instant.toString writes it (the messages match core's)."""
    at = _EPOCH + timedelta(milliseconds=ms)
    text = at.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (f".{ms % 1000:03d}" if ms % 1000 else "") + "Z"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def traceparent_problem(value: Any) -> Optional[str]:
    if value is None:
        return "must not be null"
    shown = value if len(str(value)) <= 80 else str(value)[:80] + "..."
    m = _TRACEPARENT.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        return ("must be a W3C traceparent, 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags> in lower case, "
                f'got "{shown}"')
    if m.group(1) == "ff":
        return f'version ff is invalid (W3C trace context), got "{shown}"'
    if m.group(1) == "00" and m.group(5) is not None:
        return f"a version 00 traceparent is exactly 55 characters, got {len(value)}"
    if set(m.group(2)) == {"0"}:
        return "trace id must not be all zeros"
    if set(m.group(3)) == {"0"}:
        return "parent id must not be all zeros"
    return None


def require_options(options: Dict[str, Any]) -> Dict[str, Any]:
    """The record's option fields (core's names), checked with core's rules and messages; None values dropped."""
    o = {k: options[k] for k in OPTION_FIELDS if options.get(k) is not None}
    at = o.get("expiresAt")
    if at is not None and (not _whole(at) or at < MIN_EPOCH_MILLIS or at > MAX_EPOCH_MILLIS):
        hint = " (seconds instead of ms?)" if _whole(at) and 0 < at < MIN_EPOCH_MILLIS // 100 else ""
        raise InvalidInputException("expiresAt", "must be epoch milliseconds between 2000-01-01 and 9999-12-31 "
                                    f"({MIN_EPOCH_MILLIS} to {MAX_EPOCH_MILLIS}), got {at}{hint}")
    n = o.get("maxAttempts")
    if n is not None and (not _whole(n) or n < 1 or n > MAX_ATTEMPTS):
        raise InvalidInputException("maxAttempts", f"must be 1 to {MAX_ATTEMPTS}, got {n}")
    for field in ("backoffMs", "backoffMaxMs"):
        ms = o.get(field)
        if ms is not None and (not _whole(ms) or ms < 0 or ms > MAX_BACKOFF_MS):
            raise InvalidInputException(field, f"must be 0 to {MAX_BACKOFF_MS} ms (30 days), got {ms}")
    for field in ("dedupWindowMs", "debounceMaxWaitMs"):
        ms = o.get(field)
        if ms is not None and (not _whole(ms) or ms < 1 or ms > MAX_WINDOW_MS):
            raise InvalidInputException(field, f"must be 1 to {MAX_WINDOW_MS} ms (30 days), got {ms}")
    m = o.get("backoffMultiplier")
    if m is not None:
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not (1 <= m <= 100):
            raise InvalidInputException("backoffMultiplier", f"must be a number from 1 to 100, got {float(m) if isinstance(m, (int, float)) else m}")
    if "backoffMs" in o and "backoffMaxMs" in o and o["backoffMaxMs"] < o["backoffMs"]:
        raise InvalidInputException("backoffMaxMs", f"must not be below backoffMs ({o['backoffMs']}), got {o['backoffMaxMs']}")
    action = o.get("onExpiry")
    if action is not None:
        if action not in ("dead-letter", "discard"):
            raise InvalidInputException("onExpiry", f'must be "dead-letter" or "discard", got "{action}"')
        if at is None:
            raise InvalidInputException("onExpiry", "needs an expiresAt")
        if action == "dead-letter":
            del o["onExpiry"]  # the default: not stored, as core does
    state = o.get("tracestate")
    if state is not None and "traceparent" not in o:
        raise InvalidInputException("tracestate", "needs a traceparent")
    if "traceparent" in o:
        problem = traceparent_problem(o["traceparent"])
        if problem:
            raise InvalidInputException("traceparent", problem)
    if state is not None:
        if not isinstance(state, str) or len(state) > MAX_TRACESTATE:
            raise InvalidInputException("tracestate", f"must be at most {MAX_TRACESTATE} characters (the W3C limit), got {len(str(state))}")
        bad = next((i for i, c in enumerate(state) if not 0x20 <= ord(c) <= 0x7e), None)
        if bad is not None:
            raise InvalidInputException("tracestate", "must be printable ASCII (W3C list of key=value), "
                                        f"got character U+{ord(state[bad]):04X} at {bad}")
        if state == "":
            del o["tracestate"]
    if m is not None and float(m).is_integer():
        o["backoffMultiplier"] = int(m)
    return o


def _millis(d: Optional[timedelta], field: str) -> Optional[int]:
    if d is None:
        return None
    if not isinstance(d, timedelta):
        raise InvalidInputException(field, f"must be a datetime.timedelta, got {type(d).__name__}")
    if d < timedelta(0):
        raise InvalidInputException(field, f"must not be negative, got {d // _MS} ms")
    return d // _MS


def _window(d: Optional[timedelta], field: str) -> Optional[int]:
    """A window's ms; a zero or negative one is refused with the window rule (not "must not be negative")."""
    if d is None:
        return None
    if not isinstance(d, timedelta):
        raise InvalidInputException(field, f"must be a datetime.timedelta, got {type(d).__name__}")
    return d // _MS


def require_debounce(policy: DuplicatePolicy, prepared: Sequence["Prepared"]) -> None:
    """The DEBOUNCE policy and a task's debounce wait go together: one without the other is refused."""
    for p in prepared:
        waits = "debounceMaxWaitMs" in p.options
        if policy is DuplicatePolicy.DEBOUNCE and not waits:
            raise InvalidInputException("debounceMaxWaitMs", "is required with the DEBOUNCE duplicate policy "
                                        f"(Task.debounce_max_wait), missing for task {p.id}")
        if policy is not DuplicatePolicy.DEBOUNCE and waits:
            raise InvalidInputException("duplicatePolicy", f"must be DEBOUNCE for a task with a debounce wait (task {p.id}), "
                                        f"got {policy.name}")


def task_options(t: Task, timing: str, ms: int, now_ms: int) -> Dict[str, Any]:
    """A Task's per-task options as record fields, validated; the expiry is judged against the due time."""
    expires = None
    if t.expires_at is not None:
        try:
            expires = due_at_millis(t.expires_at)
        except InvalidInputException as e:
            raise InvalidInputException("expiresAt", str(e)[len("dueAt: "):]) from None
    o = require_options({"expiresAt": expires, "onExpiry": t.on_expiry, "maxAttempts": t.max_attempts,
                         "backoffMs": _millis(t.backoff, "backoffMs"), "backoffMaxMs": _millis(t.backoff_max, "backoffMaxMs"),
                         "backoffMultiplier": t.backoff_multiplier, "traceparent": t.traceparent,
                         "tracestate": t.tracestate, "dedupWindowMs": _window(t.dedup_window, "dedupWindowMs"),
                         "debounceMaxWaitMs": _window(t.debounce_max_wait, "debounceMaxWaitMs")})
    if expires is not None:
        due, name = (ms, "dueAt") if timing == "at" else (now_ms + ms, "due time (now + delay)")
        if expires <= due:
            raise InvalidInputException("expiresAt", f"must be after the task's {name} ({_instant(due)}), got "
                                        f"{_instant(expires)}: the task would expire before it could run")
        if expires <= now_ms:
            raise InvalidInputException("expiresAt", f"is in the past ({_instant(expires)})")
    return o


# ---- shard math and keys ----

def shard_of(task_id: str, shards: int) -> int:
    """CRC-32/IEEE of the UTF-8 id, modulo the shard count (Java's CRC32, Go's crc32.ChecksumIEEE)."""
    return zlib.crc32(task_id.encode("utf-8")) % shards


def bucket_of(task_id: str) -> int:
    """The record hash of the id within its shard: h = (h * 31 + byte) mod 2^24, then h mod 2039."""
    h = 0
    for b in task_id.encode("utf-8"):
        h = (h * 31 + b) % 16777216
    return h % RECORD_BUCKETS


def meta_key(queue: str) -> str:
    return "dq:{%s}:meta" % queue


def shard_keys(queue: str, shard: int) -> List[str]:
    """KEYS[1..10] of every shard script, in include/shard_keys.lua's order."""
    k = "dq:{%s:%d}:" % (queue, shard)
    return [k + s for s in ("due", "due:p1", "due:p2", "inflight", "tasks", "attempts", "errors", "dead", "marker",
                            "rate")]


def record_key(queue: str, shard: int, task_id: str) -> str:
    return "dq:{%s:%d}:tasks:%d" % (queue, shard, bucket_of(task_id))


# ---- records ----

def _base36(n: int) -> str:
    if n == 0:
        return "0"
    digits = []
    negative = n < 0
    n = abs(n)
    while n:
        n, r = divmod(n, 36)
        digits.append(_BASE36[r])
    return ("-" if negative else "") + "".join(reversed(digits))


def encode_record(payload: Optional[str], enqueued_at: int, priority: int,
                  options: Optional[Dict[str, Any]] = None) -> str:
    """Compact ``<priority digit><enqueuedAt base 36>:<payload>`` when there is a payload and no option, else
    the JSON form (core's field order: payload, enqueuedAt, priority, then the options)."""
    if payload is not None and not options:
        return f"{priority}{_base36(enqueued_at)}:{payload}"
    record: Dict[str, Any] = {}
    if payload is not None:
        record["payload"] = payload
    record["enqueuedAt"] = enqueued_at
    if priority:
        record["priority"] = priority
    for k in OPTION_FIELDS:
        if options and options.get(k) is not None:
            record[k] = options[k]
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


class MalformedRecordException(DelayQueueException):
    """A stored record that does not follow the protocol (a worker dead-letters such a task)."""


def decode_record(stored: Optional[str]) -> TaskRecord:
    if not stored:
        return TaskRecord(None, None, 0)
    first = stored[0]
    if first == "{":
        try:
            obj = json.loads(stored)
        except ValueError as e:
            raise MalformedRecordException(f"task record is not valid JSON: {e}") from None
        payload = obj.get("payload")
        level = obj.get("priority")
        level = 0 if not isinstance(level, (int, float)) else max(0, min(2, int(level)))
        enqueued = obj.get("enqueuedAt")
        return TaskRecord(None if payload is None else str(payload),
                          int(enqueued) if isinstance(enqueued, (int, float)) else None, level)
    if first not in "012":
        raise MalformedRecordException(f"{_COMPACT_RULE}; it starts with '{first}'")
    colon = stored.find(":", 1)
    if colon < 0:
        raise MalformedRecordException(f"{_COMPACT_RULE}; the ':' before the payload is missing")
    try:
        enqueued_at = int(stored[1:colon], 36)
    except ValueError:
        raise MalformedRecordException(
            f"{_COMPACT_RULE}; enqueuedAt '{stored[1:colon]}' is not a base-36 number") from None
    return TaskRecord(stored[colon + 1:], enqueued_at, int(first))


# ---- script calls: arguments and replies ----

class Prepared:
    """A validated task ready for the enqueue script."""
    __slots__ = ("id", "shard", "timing", "ms", "payload", "priority", "options")

    def __init__(self, task_id: str, shard: int, timing: str, ms: int, payload: Optional[str], priority: int,
                 options: Optional[Dict[str, Any]] = None):
        self.id, self.shard, self.timing, self.ms, self.payload, self.priority = task_id, shard, timing, ms, payload, priority
        self.options = options or {}


def prepare(tasks: Iterable[Task], shards: int, max_payload_bytes: int, now_ms: int) -> List[Prepared]:
    """Validates a whole batch before anything is sent, so bad input never leaves half a batch written."""
    out = []
    for t in tasks:
        if not isinstance(t, Task):
            raise InvalidInputException("task", f"must be a delayq.Task, got {type(t).__name__}")
        task_id = require_id(t.id)
        timing, ms = schedule(t.delay, t.due_at, now_ms)
        payload = require_payload(t.payload, max_payload_bytes)
        level = require_priority(t.priority)
        group = require_group(t.group)
        require_group_priority(group, level)
        options = task_options(t, timing, ms, now_ms)
        if group is not None:
            # the record names the group (the JSON form); both protocols' enqueue scripts read it from there
            options["group"] = group
        out.append(Prepared(task_id, shard_of(task_id, shards), timing, ms, payload, level, options))
    return out


def chunks(prepared: Sequence[Prepared]) -> List[Tuple[int, List[int]]]:
    """(shard, input indexes) of each script call: grouped by shard, at most MAX_PER_CALL per call."""
    return group(range(len(prepared)), lambda i: prepared[i].shard)


def group(indexes: Sequence[int], shard_of: Callable[[int], int]) -> List[Tuple[int, List[int]]]:
    """(shard, indexes) of each script call: grouped by ``shard_of(index)``, at most MAX_PER_CALL per call."""
    by_shard: Dict[int, List[int]] = {}
    for i in indexes:
        by_shard.setdefault(shard_of(i), []).append(i)
    calls = []
    for shard, chunk in by_shard.items():
        for start in range(0, len(chunk), MAX_PER_CALL):
            calls.append((shard, chunk[start:start + MAX_PER_CALL]))
    return calls


def enqueue_args(policy: DuplicatePolicy, tasks: Sequence[Prepared], enqueued_at: int, epoch: int = 0,
                 present_only: bool = False) -> List[str]:
    """enqueue.lua's ARGV; ``epoch``: the caller's layout epoch; ``present_only``: act only on ids the shard holds
    (the old shard during a migration)."""
    args = [policy.value, str(len(tasks))]
    for t in tasks:
        args += [t.id, t.timing, str(t.ms), encode_record(t.payload, enqueued_at, t.priority, t.options), str(t.priority)]
    return args + [str(epoch), "present" if present_only else ""]


def _int(v: Any) -> int:
    return 0 if v is None else int(v)


def _text(v: Any) -> Optional[str]:
    if v is None:
        return None
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def placed(reply: Sequence[Any], tasks: Sequence[Prepared]) -> List[Tuple[str, str, int]]:
    """(id, status, due) per task as enqueue.lua answered; status also "absent" or "moving" (routed on, never
    an answer to the caller)."""
    return [(t.id, _text(reply[1 + 2 * i]) or "", _int(reply[2 + 2 * i])) for i, t in enumerate(tasks)]


def parse_enqueue(reply: Sequence[Any], tasks: Sequence[Prepared]) -> List[EnqueueResult]:
    """The final answers of a reply (a task answered "absent" or "moving" has none yet: left out)."""
    final = {s.value for s in EnqueueStatus}
    return [EnqueueResult(i, EnqueueStatus(s), due) for i, s, due in placed(reply, tasks) if s in final]


def status_of_cancel(reply: Any) -> str:
    """The wire status of cancel.lua's reply ("unknown" and "moving" are routed on)."""
    return _text(reply) or ""


def status_of_reschedule(reply: Sequence[Any]) -> str:
    return _text(reply[0]) or ""


def status_of_inspect(reply: Sequence[Any]) -> str:
    return _text(reply[1]) or ""


def parse_cancel(reply: Any) -> CancelResult:
    text = _text(reply)
    return CancelResult(text) if text in ("cancelled", "inflight") else CancelResult.UNKNOWN


def parse_reschedule(reply: Sequence[Any]) -> RescheduleResult:
    text = _text(reply[0])
    status = RescheduleStatus(text) if text in ("rescheduled", "inflight", "dead") else RescheduleStatus.UNKNOWN
    return RescheduleResult(status, _int(reply[1]))


def parse_inspect(reply: Sequence[Any], task_id: str, shard: int) -> TaskInfo:
    text = _text(reply[1])
    state = TaskState(text) if text in ("scheduled", "inflight", "dead", "succeeded") else TaskState.UNKNOWN
    return TaskInfo(task_id, shard, state, _int(reply[2]), _int(reply[3]), _int(reply[4]), _text(reply[5]),
                    _text(reply[6]), _int(reply[0]), parse_progress(_text(reply[7]) if len(reply) > 7 else None),
                    parse_completion(_text(reply[8]) if len(reply) > 8 else None))


def parse_completion(stored: Optional[str]) -> Optional[TaskCompletion]:
    """A completion record as ack.lua writes it, ``<finished ms>|<attempts>|<handler ms>|<truncated 0/1>|<worker>|<result>``;
    None for none (or a foreign form)."""
    if not stored:
        return None
    parts = stored.split("|", 5)
    if len(parts) != 6:
        return None
    try:
        return TaskCompletion(int(parts[0]), int(parts[1]), int(parts[2]), parts[4], parts[5], parts[3] == "1")
    except ValueError:
        return None


def parse_progress(stored: Optional[str]) -> Optional[TaskProgress]:
    """A progress entry as progress.lua writes it, ``<at ms>|<percent>|<note>``; None for none (or a foreign form)."""
    if not stored:
        return None
    parts = stored.split("|", 2)
    if len(parts) != 3:
        return None
    try:
        return TaskProgress(float(parts[1]), parts[2], int(parts[0]))
    except ValueError:
        return None


def parse_stats(reply: Sequence[Any], shard: int) -> ShardStats:
    r = [_int(v) for v in reply]
    return ShardStats(shard, r[0], r[1], r[2], r[3], r[4], r[5])
