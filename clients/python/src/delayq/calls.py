"""The script calls behind each operation, for each protocol a queue's meta may record: which script, which keys,
which arguments. Pure; the routing (routing.py) speaks through the set of the protocol the queue records, as core's
``QueueProtocol`` and ``TaskAdmin`` turn to ``BucketQueue`` on a protocol-3 queue. Both sets' replies have protocol
2's shapes, so the answers are parsed alike (protocol.py).
"""
from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Sequence, Union

from . import protocol, protocol3
from .model import DuplicatePolicy


class Call(NamedTuple):
    """One script call; ``shard`` and ``batch`` are set on enqueue calls (the replica-ack path needs them)."""
    name: str
    keys: List[str]
    args: List[str]
    shard: int = -1
    batch: Optional[List[protocol.Prepared]] = None


class Protocol2Calls:
    """Protocol 2 (docs/protocol.md): the shard's ten keys, and the caller's layout epoch with every call (a shard
    of another epoch answers LAYOUT, and the routing re-reads the layout)."""
    version = protocol.PROTOCOL_VERSION

    def __init__(self, queue: str) -> None:
        self.queue = queue

    def _keys(self, shard: int) -> List[str]:
        return protocol.shard_keys(self.queue, shard)

    def enqueue(self, shard: int, policy: DuplicatePolicy, batch: Sequence[protocol.Prepared], enqueued_at: int,
                epoch: int, present_only: bool) -> Call:
        return Call("enqueue", self._keys(shard), protocol.enqueue_args(policy, batch, enqueued_at, epoch, present_only),
                    shard, list(batch))

    def cancel(self, shard: int, task_id: str, epoch: int) -> Call:
        return Call("cancel", self._keys(shard), [task_id, str(epoch)])

    def reschedule(self, shard: int, task_id: str, timing: str, ms: int, epoch: int) -> Call:
        return Call("reschedule", self._keys(shard), [task_id, timing, str(ms), str(epoch)])

    def inspect(self, shard: int, task_id: str, epoch: int) -> Call:
        return Call("inspect", self._keys(shard), [task_id, str(epoch)])

    def stats(self, shard: int) -> Call:
        return Call("stats", self._keys(shard), [])

    @staticmethod
    def status_of_cancel(reply: Any) -> str:
        return protocol.status_of_cancel(reply)


class Protocol3Calls:
    """Protocol 3 (docs/protocol3.md): one key, the shard's prefix; each id goes with its id-index bucket, and the
    caller's layout epoch with every call (and "present" on an old shard during a migration), as protocol 2's."""
    version = protocol3.PROTOCOL_BUCKETED

    def __init__(self, queue: str) -> None:
        self.queue = queue

    def _keys(self, shard: int) -> List[str]:
        return [protocol3.prefix(self.queue, shard)]

    def enqueue(self, shard: int, policy: DuplicatePolicy, batch: Sequence[protocol.Prepared], enqueued_at: int,
                epoch: int, present_only: bool) -> Call:
        return Call(protocol3.enqueue_script(policy), self._keys(shard), protocol3.enqueue_args(policy, batch, enqueued_at, epoch, present_only),
                    shard, list(batch))

    def cancel(self, shard: int, task_id: str, epoch: int) -> Call:
        return Call(protocol3.CANCEL, self._keys(shard), protocol3.id_args(task_id) + [str(epoch)])

    def reschedule(self, shard: int, task_id: str, timing: str, ms: int, epoch: int) -> Call:
        return Call(protocol3.RESCHEDULE, self._keys(shard), protocol3.id_args(task_id) + [timing, str(ms), str(epoch)])

    def inspect(self, shard: int, task_id: str, epoch: int) -> Call:
        return Call(protocol3.INSPECT, self._keys(shard), protocol3.id_args(task_id) + [str(epoch)])

    def stats(self, shard: int) -> Call:
        return Call(protocol3.STATS, self._keys(shard), [str(protocol3.COUNTED_BUCKETS)])

    @staticmethod
    def status_of_cancel(reply: Any) -> str:
        return protocol3.status_of_cancel(reply)


ProtocolCalls = Union[Protocol2Calls, Protocol3Calls]


def calls_for(version: int, queue: str) -> ProtocolCalls:
    """The call set of a protocol this library speaks (layout.SPOKEN)."""
    return Protocol3Calls(queue) if version == Protocol3Calls.version else Protocol2Calls(queue)
