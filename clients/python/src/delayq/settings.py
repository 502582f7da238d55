"""The client's settings, checked before anything connects (the Java builder's rules and messages)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import protocol
from .errors import InvalidInputException


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

    @property
    def replica_ack_millis(self) -> int:
        t = self.replica_ack_timeout
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            raise InvalidInputException("replicaAcks.timeout", f"must be a number of seconds, got {t!r}")
        return int(round(t * 1000))
