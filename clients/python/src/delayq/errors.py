"""The errors delayq raises on purpose. Names and messages are those of the Java client
(``io.delayq.*Exception``), so that logs and runbooks read the same in every language."""
from __future__ import annotations

from typing import List, TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .model import EnqueueResult


class DelayQueueException(Exception):
    """Base of every error delayq raises on purpose."""


class InvalidInputException(DelayQueueException, ValueError):
    """Bad input, named by the field and the rule it broke; nothing was written to Redis."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule


class ShardCountMismatchException(DelayQueueException):
    """The client is configured with a shard count the queue in Redis never had: writing would put tasks where no
    worker looks. A count the queue had before a reshard is not refused (the client follows the layout in Redis),
    so the message names the current count and the one way the count changes."""

    def __init__(self, queue: str, configured: int, recorded: int) -> None:
        super().__init__(
            f"shards: queue '{queue}' has {recorded} shards in Redis (dq:{{{queue}}}:meta) and never had {configured}, "
            f"the count this client is configured with; use {recorded} (or a count the queue had before a reshard): "
            "the client reads the queue's layout from Redis and follows it, and the count changes only through a "
            f"reshard (delayq reshard {queue} --to N)")
        self.queue, self.configured, self.recorded = queue, configured, recorded


class ProtocolVersionMismatchException(DelayQueueException):
    """The queue in Redis was written by a delayq of another protocol version."""

    def __init__(self, queue: str, supported: int, recorded: int) -> None:
        super().__init__(
            f"protocol: queue '{queue}' uses delayq protocol version {recorded} in Redis, this client speaks version "
            f"{supported}; the key layout and record format differ between versions, so every producer and worker "
            "of a queue must speak the same one")
        self.queue, self.supported, self.recorded = queue, supported, recorded


class ReplicaAckException(DelayQueueException):
    """An enqueue reached the primary, but fewer replicas than required confirmed it in time.

    Retrying the same tasks is safe (ids are deduplicated): the retry answers "duplicate" and waits again.
    """

    def __init__(self, shard: int, results: "List[EnqueueResult]", required: int, acknowledged: int,
                 timeout_ms: int) -> None:
        super().__init__(
            f"enqueue of {len(results)} task(s) on shard {shard} reached the primary, but only {acknowledged} of the "
            f"{required} required replica(s) acknowledged it within {timeout_ms} ms (replicaAcks): it may be lost if "
            "the primary fails now; retrying is safe, ids are deduplicated")
        self.shard, self.required, self.acknowledged = shard, required, acknowledged
        self.results = list(results)
