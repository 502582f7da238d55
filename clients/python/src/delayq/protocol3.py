"""The delayq protocol, version 3 (docs/protocol3.md: waiting tasks in buckets of one due window), as pure
functions: the key prefix, the id index's bucket, and the argument and reply layouts of the ``p3/`` scripts that
the producer calls. Mirrors core's ``io.delayq.bucket.BucketLayout`` and ``BucketQueue``.

Records, validation and the answers' shapes are protocol 2's (protocol.py): the ``p3/`` scripts answer an
enqueue, cancel, reschedule, inspect and stats as protocol 2's scripts do.
"""
from __future__ import annotations

import zlib
from typing import Any, List, Sequence

from . import protocol
from .model import DuplicatePolicy

#: the version a queue's meta records for protocol 3 (core's QueueProtocol.BUCKETED)
PROTOCOL_BUCKETED = 3
#: buckets of a shard's id index (``ix:<h>``); p3/include/buckets.lua's IXB
ID_INDEX_BUCKETS = 2039
#: the most buckets a stats call reads; the rest count at the read ones' average fill (core's BucketQueue)
COUNTED_BUCKETS = 10_000
#: script names, as the package ships them (_lua.py)
ENQUEUE, ENQUEUE_POLICY = "p3/enqueue", "p3/enqueue_policy"
CANCEL, RESCHEDULE, INSPECT, STATS = "p3/cancel", "p3/reschedule", "p3/inspect", "p3/stats"


def prefix(queue: str, shard: int) -> str:
    """KEYS[1] of every protocol-3 script: the prefix every key of the shard starts with."""
    return "dq:{%s:%d}:" % (queue, shard)


def index_bucket(task_id: str) -> int:
    """The id's hash of the id index: crc32(id) % 2039, computed by the caller so that no script pays it per task."""
    return zlib.crc32(task_id.encode("utf-8")) % ID_INDEX_BUCKETS


def enqueue_script(policy: DuplicatePolicy) -> str:
    """REJECT takes enqueue.lua's short path; the other policies enqueue_policy.lua."""
    return ENQUEUE if policy is DuplicatePolicy.REJECT else ENQUEUE_POLICY


def enqueue_args(policy: DuplicatePolicy, tasks: Sequence[protocol.Prepared], enqueued_at: int, epoch: int = 0,
                 present_only: bool = False) -> List[str]:
    """The enqueue scripts' ARGV: the policy (not for REJECT), n, then per task id, its index bucket, timing, ms,
    record and priority level; then the caller's layout epoch and where ("present": act only on ids the shard
    holds, the old shard during a migration), as protocol 2's (docs/protocol.md, "Layouts and resharding")."""
    args = [] if policy is DuplicatePolicy.REJECT else [policy.value]
    args.append(str(len(tasks)))
    for t in tasks:
        args += [t.id, str(index_bucket(t.id)), t.timing, str(t.ms),
                 protocol.encode_record(t.payload, enqueued_at, t.priority, t.options), str(t.priority)]
    args += [str(epoch), "present" if present_only else ""]
    return args


def id_args(task_id: str) -> List[str]:
    """cancel.lua's and inspect.lua's first two ARGV (reschedule.lua's too): the id and its index bucket; the caller's
    layout epoch follows last."""
    return [task_id, str(index_bucket(task_id))]


def status_of_cancel(reply: Any) -> str:
    """cancel.lua answers 'absent' where protocol 2's answers 'unknown': routed on to the id's next shard alike."""
    status = protocol.status_of_cancel(reply)
    return "unknown" if status == "absent" else status
