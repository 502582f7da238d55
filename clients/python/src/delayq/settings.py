"""The client's settings, checked before anything connects (the Java builder's rules and messages)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Optional

from . import protocol
from .errors import InvalidInputException
from .protocol3 import PROTOCOL_BUCKETED

#: the environment variable that picks the protocol a new queue is recorded with, as core reads it (2 or 3)
PROTOCOL_ENV = "DELAYQ_PROTOCOL"
#: the protocols a queue this library creates may be recorded with
NEW_QUEUE_PROTOCOLS = (protocol.PROTOCOL_VERSION, PROTOCOL_BUCKETED)


def protocol_for_new_queues(asked: Any = None) -> int:
    """The protocol a queue is recorded with when this client creates it (its meta hash is absent), as core's
    ``QueueProtocol.protocolForNewQueues``: the ``protocol_for_new_queues`` option when given, else the environment
    variable ``DELAYQ_PROTOCOL``, else 3 (docs/protocol3.md). It decides nothing for a queue that exists: the
    protocol its meta records does."""
    if asked is not None:
        if isinstance(asked, bool) or not isinstance(asked, int) or asked not in NEW_QUEUE_PROTOCOLS:
            raise InvalidInputException("protocol_for_new_queues", f"must be 2 or 3, got {asked!r}")
        return asked
    env = os.environ.get(PROTOCOL_ENV)
    if env is None or not env.strip():
        return PROTOCOL_BUCKETED
    if env.strip() in ("2", "3"):
        return int(env.strip())
    raise InvalidInputException(PROTOCOL_ENV, f"must be 2 or 3, got '{env}'")


def _positive_seconds(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise InvalidInputException(field, f"must be positive (seconds), got {value}")
    return float(value)


@dataclass(frozen=True)
class Settings:
    queue: str
    shards: int
    max_payload_bytes: int = protocol.DEFAULT_MAX_PAYLOAD_BYTES
    timeout: float = 10.0
    replica_acks: int = 0
    replica_ack_timeout: float = 0.5
    #: None: DELAYQ_PROTOCOL, else 3 (protocol_for_new_queues())
    protocol_for_new_queues: Optional[int] = None
    #: the protocol a queue this client creates is recorded with, resolved when the settings are checked
    new_queue_protocol: int = dataclass_field(init=False, default=PROTOCOL_BUCKETED)

    def __post_init__(self) -> None:
        protocol.require_queue(self.queue)
        protocol.require_shards(self.shards)
        mpb = self.max_payload_bytes
        if isinstance(mpb, bool) or not isinstance(mpb, int) or mpb < 1 or mpb > 512 * 1024 * 1024:
            raise InvalidInputException("maxPayloadBytes", f"must be between 1 and 536870912, got {mpb}")
        _positive_seconds(self.timeout, "timeout")
        acks = self.replica_acks
        if isinstance(acks, bool) or not isinstance(acks, int) or acks < 0 or acks > 100:
            raise InvalidInputException("replicaAcks.replicas", f"must be between 1 and 100 (0: off), got {acks}")
        if acks:
            if self.replica_ack_millis < 1:
                raise InvalidInputException("replicaAcks.timeout",
                                            "must be at least 1 ms (WAIT 0 would block forever), got "
                                            f"{self.replica_ack_timeout} s")
            if self.replica_ack_timeout >= self.timeout:
                raise InvalidInputException("replicaAcks.timeout", "must be shorter than the client's timeout ("
                                            f"{round(self.timeout * 1000)} ms), got {self.replica_ack_millis} ms")
        object.__setattr__(self, "new_queue_protocol", protocol_for_new_queues(self.protocol_for_new_queues))

    @property
    def replica_ack_millis(self) -> int:
        t = self.replica_ack_timeout
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            raise InvalidInputException("replicaAcks.timeout", f"must be a number of seconds, got {t!r}")
        return int(round(t * 1000))
