"""Durable roles of the fan-out machinery: the outbox (the truth until fan-out is
done), dead letters (events that failed every try), and Snowflake worker-ID leases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from feedloom.domain.model import Event


class Outbox(Protocol):
    async def claim_unsent(self, limit: int, now: datetime) -> list[Event]:
        """Up to `limit` events never sent, oldest first, now marked sent (each carries
        its `seq`); concurrent relays never claim the same event twice."""
        ...

    async def claim_lost(
        self, epochs: Mapping[str, str], sent_before: datetime, limit: int, now: datetime
    ) -> list[Event]:
        """Events sent before `sent_before` whose lane's stream epoch is no longer
        theirs (the stream was lost), claimed again to be re-sent."""
        ...

    async def mark_sent(self, seqs: Sequence[int], lane: str, epoch: str) -> None: ...
    async def done(self, seqs: Sequence[int]) -> None:
        """These events are fanned out: forget them (0, no outbox row, is ignored)."""
        ...

    async def add(self, events: Sequence[Event], now: datetime) -> None: ...
    async def pending(self) -> int:
        """Events not yet fanned out, sent or not."""
        ...

    async def oldest(self, sent: bool) -> datetime | None:
        """Creation time of the oldest unsent (`sent` False) or sent-not-done event."""
        ...


@dataclass(frozen=True, slots=True)
class DeadEvent:
    id: int
    event: Event
    lane: str
    attempts: int
    error: str
    failed_at: datetime


class DeadLetters(Protocol):
    async def add(
        self, event: Event, lane: str, attempts: int, error: str, now: datetime
    ) -> int: ...
    async def list(self, after: int, limit: int) -> list[DeadEvent]: ...
    async def get(self, dead_id: int) -> DeadEvent | None: ...
    async def replay(self, dead_ids: Sequence[int], now: datetime) -> int:
        """Move these back into the outbox (one transaction); returns how many."""
        ...

    async def count(self) -> int: ...


class WorkerLeases(Protocol):
    async def acquire(
        self, holder: str, ttl: timedelta, now: datetime, wanted: int | None = None
    ) -> int:
        """A worker ID no live lease holds (`wanted`, or any free one), now leased to
        `holder` until now + ttl. RuntimeError when it (or every ID) is leased."""
        ...

    async def renew(self, worker_id: int, holder: str, ttl: timedelta, now: datetime) -> bool:
        """False when the lease was lost (expired and taken): stop minting IDs."""
        ...

    async def release(self, worker_id: int, holder: str) -> None: ...
