"""Sends id-addressed operations to the shard that holds the id, whichever layout that is (docs/protocol.md,
"Layouts and resharding"), as core's ``IdRouting`` does: during a migration the old shard first, acting only
if the id is there, then the new one; a "LAYOUT" refusal re-reads the meta hash and tries again; a "moving"
answer waits a few milliseconds for the mover to deliver the task. Nothing is written by a refused or
"moving" call, so trying again is always safe. The scripts are those of the protocol the queue's meta records
(calls.py); protocol 3's shards answer LAYOUT, "absent" and "moving" as protocol 2's do, so both protocols follow
the same rule.

No I/O: each operation is a generator that yields what it needs and is sent the answer, so that the sync and
the asyncio client run the same rule. It yields either a list of :class:`Call` (answered with a list of
replies in the same order, a script's error reply as the exception object, not raised) or a float (seconds
to sleep, answered with None). Its return value is the operation's answer.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Generator, List, Optional, Sequence, Tuple

from . import protocol
from .calls import Call, ProtocolCalls, calls_for
from .layout import SPOKEN, Layout, LayoutChangedException, check_meta, is_layout_refusal, recorded_protocol
from .model import DuplicatePolicy, EnqueueResult, EnqueueStatus, QueueStats
from .protocol3 import PROTOCOL_BUCKETED

#: how long an operation follows layout changes and waits for a task in the mover's hands (core: 10 s)
PATIENCE_S = 10.0
#: the wait between two tries (core: 5 ms)
PAUSE_S = 0.005


Step = Generator[Any, Any, Any]


class Routing:
    """The layout and protocol one client follows: read from the meta hash when the client starts and after every
    LAYOUT answer. ``calls`` are the scripts of the protocol the meta records (calls.py)."""

    def __init__(self, queue: str, configured_shards: int, new_queue_protocol: int = PROTOCOL_BUCKETED) -> None:
        self.queue = queue
        self.configured_shards = configured_shards
        #: the protocol a queue this client creates is recorded with (settings.protocol_for_new_queues)
        self.new_queue_protocol = new_queue_protocol
        self.layout = Layout.initial(configured_shards)
        # until the meta answers, the protocol a new queue gets; verify_meta switches to what the meta records
        self.calls: ProtocolCalls = calls_for(new_queue_protocol, queue)

    @property
    def protocol_version(self) -> int:
        """The protocol the queue's meta records, as last read (before the first read, the one a new queue gets)."""
        return self.calls.version

    def meta_call(self) -> Call:
        # a new queue is recorded with new_queue_protocol (3 unless asked otherwise); an existing one keeps what its
        # meta records
        return Call("meta", [protocol.meta_key(self.queue)], [str(self.configured_shards), str(self.new_queue_protocol)])

    def verify_meta(self) -> Step:
        [reply] = yield [self.meta_call()]
        reply = _raised(reply)
        self.layout = check_meta(reply, self.queue, self.configured_shards, self.new_queue_protocol)
        # the recorded protocol decides: on a queue just created it is new_queue_protocol, so the first enqueue
        # already goes through that protocol's scripts
        self._speak(recorded_protocol(reply))

    def _refresh(self) -> Step:
        [reply] = yield [self.meta_call()]
        reply = _raised(reply)
        self.layout = Layout.from_meta(reply)
        # a queue upgraded in place to protocol 3 is spoken to as such from here on (core's QueueLayout.refresh)
        if recorded_protocol(reply) in SPOKEN:
            self._speak(recorded_protocol(reply))

    def _speak(self, version: int) -> None:
        if version != self.calls.version:
            self.calls = calls_for(version, self.queue)

    # ---- operations: each answers what the client answers ----

    def cancel(self, task_id: str) -> Step:
        reply, _ = yield from self.by_id(task_id, lambda shard, epoch: self.calls.cancel(shard, task_id, epoch),
                                         lambda reply: self.calls.status_of_cancel(reply))
        return protocol.parse_cancel(reply)

    def reschedule(self, task_id: str, timing: str, ms: int) -> Step:
        reply, _ = yield from self.by_id(task_id, lambda shard, epoch: self.calls.reschedule(shard, task_id, timing, ms, epoch),
                                         protocol.status_of_reschedule)
        return protocol.parse_reschedule(reply)

    def inspect(self, task_id: str) -> Step:
        reply, shard = yield from self.by_id(task_id, lambda shard, epoch: self.calls.inspect(shard, task_id, epoch),
                                             protocol.status_of_inspect)
        return protocol.parse_inspect(reply, task_id, shard)

    def stats(self) -> Step:
        """Every shard's stats, in one batch of calls."""
        replies = yield [self.calls.stats(s) for s in range(self.layout.shards)]
        return QueueStats(self.queue, [protocol.parse_stats(_raised(r), s) for s, r in enumerate(replies)])

    def by_id(self, task_id: str, call: Callable[[int, int], Call], status: Callable[[Any], str]) -> Step:
        """A cancel, reschedule or inspect (``call``: its call on a shard under a layout epoch): answers (reply, shard)
        of the first shard in the layout's lookup order that holds the id; when none does, the id's own shard's
        "unknown" reply."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            layout = self.layout
            own: Optional[Tuple[Any, int]] = None
            answer: Optional[Tuple[Any, int]] = None
            refused = False
            for shard in layout.lookup_order(task_id):
                [reply] = yield [call(shard, layout.epoch)]
                if isinstance(reply, Exception):
                    if not is_layout_refusal(reply):
                        raise reply
                    refused = True
                    break
                if shard == layout.shard_of(task_id):
                    own = (reply, shard)
                answer = (reply, shard)
                if status(reply) != "unknown":
                    break
            if refused:
                yield from self._later(deadline, f"the layout of queue '{self.queue}' kept changing")
                yield from self._refresh()
                continue
            assert answer is not None
            kind = status(answer[0])
            if kind == "moving":
                yield from self._later(deadline, self._moving_message(task_id))
                continue
            return own if kind == "unknown" and own is not None else answer

    def enqueue(self, prepared: Sequence[protocol.Prepared], policy: DuplicatePolicy, enqueued_at: int) -> Step:
        """Enqueues tasks where their ids live; the answer is in input order."""
        results: List[Optional[EnqueueResult]] = [None] * len(prepared)
        pending = list(range(len(prepared)))
        deadline = time.monotonic() + PATIENCE_S
        while pending:
            layout = self.layout
            # during a migration an id whose old shard differs is tried there first ("present" only)
            moved = [i for i in pending if layout.old_shard_of(prepared[i].id) >= 0]
            direct = [i for i in pending if layout.old_shard_of(prepared[i].id) < 0]
            again: List[int] = []
            absent: List[int] = []
            refused = False
            calls = (self._calls(prepared, direct, lambda i: layout.shard_of(prepared[i].id), policy, enqueued_at, layout, False)
                     + self._calls(prepared, moved, lambda i: layout.old_shard_of(prepared[i].id), policy, enqueued_at, layout, True))
            for _ in range(2):
                replies = (yield [c for c, _ in calls]) if calls else []
                for (call, indexes), reply in zip(calls, replies):
                    if isinstance(reply, Exception):
                        if not is_layout_refusal(reply):
                            raise reply
                        refused = True
                        again += indexes
                        continue
                    for i, (task_id, status, due_at) in zip(indexes, protocol.placed(reply, call.batch or [])):
                        if status == "absent":
                            absent.append(i)
                        elif status == "moving":
                            again.append(i)
                        else:
                            results[i] = EnqueueResult(task_id, EnqueueStatus(status), due_at)
                # then the ids their old shard does not hold, on their new shard
                calls = self._calls(prepared, absent, lambda i: layout.shard_of(prepared[i].id), policy, enqueued_at, layout, False)
                absent = []
            if not again:
                break
            why = (f"the layout of queue '{self.queue}' kept changing" if refused
                   else self._moving_message(prepared[again[0]].id))
            yield from self._later(deadline, why)
            if refused:
                yield from self._refresh()
            pending = sorted(again)
        return results

    def _calls(self, prepared: Sequence[protocol.Prepared], indexes: List[int], shard_of: Callable[[int], int],
               policy: DuplicatePolicy, enqueued_at: int, layout: Layout, present_only: bool) -> List[Tuple[Call, List[int]]]:
        return [(self.calls.enqueue(shard, policy, [prepared[i] for i in chunk], enqueued_at, layout.epoch, present_only), chunk)
                for shard, chunk in protocol.group(indexes, shard_of)]

    def _later(self, deadline: float, give_up: str) -> Step:
        if time.monotonic() > deadline:
            raise LayoutChangedException(give_up)
        yield PAUSE_S

    def _moving_message(self, task_id: str) -> str:
        return (f"task '{task_id}' of queue '{self.queue}' stayed in a shard's `moving` hash for {PATIENCE_S:.0f} s: a "
                f"reshard is running but its mover seems stopped; resume it (delayq reshard {self.queue} --to "
                f"{self.layout.shards})")


def _raised(reply: Any) -> Any:
    if isinstance(reply, Exception):
        raise reply
    return reply


def run_sync(step: Step, execute: Callable[[List[Call]], List[Any]]) -> Any:
    """Drives an operation with blocking calls."""
    answer: Any = None
    while True:
        try:
            need = step.send(answer)
        except StopIteration as done:
            return done.value
        if isinstance(need, float):
            time.sleep(need)
            answer = None
        else:
            answer = execute(need)


async def run_async(step: Step, execute: Callable[[List[Call]], Any]) -> Any:
    """Drives an operation with coroutine calls (``execute`` answers an awaitable)."""
    import asyncio
    answer: Any = None
    while True:
        try:
            need = step.send(answer)
        except StopIteration as done:
            return done.value
        if isinstance(need, float):
            await asyncio.sleep(need)
            answer = None
        else:
            answer = await execute(need)
