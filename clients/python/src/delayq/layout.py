"""A queue's shard layout as its meta hash records it, and where an id-addressed operation must look
(docs/protocol.md, "Layouts and resharding"). Pure: mirrors core's ``io.delayq.layout.Layout``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence, Tuple

from .errors import DelayQueueException, ProtocolVersionMismatchException, ShardCountMismatchException
from .protocol import PROTOCOL_VERSION, shard_of as _crc_shard
from .protocol3 import PROTOCOL_BUCKETED

#: the protocols this library speaks, as a queue's meta records them; it records protocol 3 for a new queue unless
#: asked for 2 (settings.protocol_for_new_queues)
SPOKEN = (PROTOCOL_VERSION, PROTOCOL_BUCKETED)


@dataclass(frozen=True)
class Layout:
    """``epoch``: 0 for a queue never resharded, +1 when a migration starts, +1 again when it ends.
    ``shards``: the current count (during a migration already the new one). ``from_shards``: 0 outside a
    migration, else the count it grows from. ``history``: every count the queue had, oldest first."""
    epoch: int
    shards: int
    from_shards: int
    history: Tuple[int, ...]

    @staticmethod
    def initial(shards: int) -> "Layout":
        return Layout(0, shards, 0, (shards,))

    @staticmethod
    def from_meta(reply: Sequence[Any]) -> "Layout":
        """meta.lua's reply: {shards, protocol, layout epoch, layouts ("4,16"), migration ("4 16"), moved, left}."""
        shards = _int(reply[0])
        epoch = _int(reply[2]) if len(reply) > 2 else 0
        layouts = _text(reply[3]) if len(reply) > 3 else ""
        migration = _text(reply[4]) if len(reply) > 4 else ""
        history = tuple(int(n) for n in layouts.split(",") if n.strip()) or (shards,)
        from_shards = int(migration.split()[0]) if migration.strip() else 0
        return Layout(epoch, shards, from_shards, history)

    @property
    def migrating(self) -> bool:
        return self.from_shards > 0

    def shard_of(self, task_id: str) -> int:
        """The id's shard in this layout (the new one during a migration)."""
        return _crc_shard(task_id, self.shards)

    def old_shard_of(self, task_id: str) -> int:
        """During a migration, the shard an enqueue asks first with "present only"; -1 when there is none."""
        if not self.migrating:
            return -1
        old = _crc_shard(task_id, self.from_shards)
        return -1 if old == self.shard_of(task_id) else old

    def lookup_order(self, task_id: str) -> List[int]:
        """The shards a cancel, reschedule or inspect tries, in order; the first that holds the id answers.
        During a migration the old shard, then the new one; always then the id's shard under every earlier
        count (what a stale hand-written producer, or a task in flight during the move, left behind)."""
        order: List[int] = []
        counts = ([self.from_shards] if self.migrating else []) + [self.shards] + list(reversed(self.history))
        for n in counts:
            s = _crc_shard(task_id, n)
            if s not in order:
                order.append(s)
        return order


def recorded_protocol(reply: Sequence[Any]) -> int:
    """The protocol version meta.lua answered (0 when none is recorded)."""
    return _int(reply[1])


def check_meta(reply: Sequence[Any], queue: str, shards: int, new_queue_protocol: int = PROTOCOL_BUCKETED) -> Layout:
    """The layout meta.lua answered; refuses a protocol this library does not speak, or a shard count the queue never
    had (a count it had before a reshard is followed: the layout is the meta's, as in core's QueueLayout.verify)."""
    layout = Layout.from_meta(reply)
    if layout.shards != shards and shards not in layout.history:
        raise ShardCountMismatchException(queue, shards, layout.shards)
    if recorded_protocol(reply) not in SPOKEN:
        # named as the version this client records for new queues, as core's message does (the same text as core's)
        raise ProtocolVersionMismatchException(queue, new_queue_protocol, recorded_protocol(reply))
    return layout


class LayoutChangedException(DelayQueueException):
    """An id-addressed operation could not settle on a layout in time: the layout kept changing, or a task
    stayed "moving" (a migration whose mover is not running). Safe to retry: nothing was written."""


def is_layout_refusal(error: BaseException) -> bool:
    """A script's "LAYOUT <epoch> <shards> <from> ..." answer: the caller's epoch is not the shard's."""
    return str(error).startswith("LAYOUT ")


def _int(v: Any) -> int:
    return 0 if v is None or v == "" else int(v)


def _text(v: Any) -> str:
    if v is None:
        return ""
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)
