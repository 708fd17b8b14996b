"""SqlOutbox: the outbox is the truth about fan-out until it is done.

A row lives from the post's transaction until a worker has fanned the event out:
1. `claim_unsent` marks rows sent (`sent_at`) and hands them to the relay; rows are
   claimed with `FOR UPDATE SKIP LOCKED` on PostgreSQL, so concurrent relays never
   claim the same row; SQLite has one writer at a time, which gives the same guarantee.
2. `mark_sent` records the lane and the lane's stream epoch once the events are on it.
3. `done` deletes the rows of events a worker has fanned out.
A sent row whose epoch is not the lane's current one was in a stream that was lost (or
its relay died between 1 and 2): `claim_lost` hands it out again. Fan-out is idempotent,
so a resent event costs work, never a duplicate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import among, utc
from feedloom.adapters.sql.schema import outbox
from feedloom.domain.model import (
    AccountErased,
    AuthorPushed,
    Event,
    PostDeleted,
    PostEdited,
    PostPublished,
)
from feedloom.domain.notifications import Notified

CLAIMING = "claiming"  # the epoch of a row claimed but not yet on a stream

KINDS: dict[type, str] = {
    PostPublished: "post_published",
    PostDeleted: "post_deleted",
    AuthorPushed: "author_pushed",
    Notified: "notified",
    PostEdited: "post_edited",
    AccountErased: "account_erased",
}
UNDONE = "notified_undone"  # a Notified event with `undo`


class SqlOutbox:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def claim_unsent(self, limit: int, now: datetime) -> list[Event]:
        return await self._claim(outbox.c.sent_at.is_(None), limit, now)

    async def claim_lost(
        self, epochs: Mapping[str, str], sent_before: datetime, limit: int, now: datetime
    ) -> list[Event]:
        current = or_(
            *(
                and_(outbox.c.lane == lane, outbox.c.epoch == epoch)
                for lane, epoch in epochs.items()
            )
        )
        lost = and_(outbox.c.sent_at.is_not(None), outbox.c.sent_at < sent_before, ~current)
        return await self._claim(lost, limit, now)

    async def mark_sent(self, seqs: Sequence[int], lane: str, epoch: str) -> None:
        if seqs:
            query = update(outbox).where(among(self._dialect, outbox.c.seq, seqs))
            query = query.values(lane=lane, epoch=epoch)
            async with self._engine.begin() as conn:
                await conn.execute(query)

    async def done(self, seqs: Sequence[int]) -> None:
        seqs = [seq for seq in seqs if seq]
        if seqs:
            async with self._engine.begin() as conn:
                await conn.execute(delete(outbox).where(among(self._dialect, outbox.c.seq, seqs)))

    async def add(self, events: Sequence[Event], now: datetime) -> None:
        """Put events in again (a replayed dead letter): fanned out like new ones."""
        rows = [outbox_row(event, now) for event in events]
        if rows:
            async with self._engine.begin() as conn:
                await conn.execute(outbox.insert(), rows)

    async def pending(self) -> int:
        """Events not yet fanned out (sent or not)."""
        async with self._engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(outbox))).scalar() or 0)

    async def oldest(self, sent: bool) -> datetime | None:
        """When the oldest unsent (or sent but not done) event was created."""
        state = outbox.c.sent_at.is_not(None) if sent else outbox.c.sent_at.is_(None)
        query = select(func.min(outbox.c.created_at)).where(state)
        async with self._engine.connect() as conn:
            return utc((await conn.execute(query)).scalar())

    async def _claim(self, which: ColumnElement[bool], limit: int, now: datetime) -> list[Event]:
        claim = select(outbox.c.seq).where(which).order_by(outbox.c.seq).limit(limit)
        if self._dialect == "postgresql":
            claim = claim.with_for_update(skip_locked=True)
        query = (
            update(outbox)
            .where(outbox.c.seq.in_(claim.scalar_subquery()))
            .values(sent_at=now, epoch=CLAIMING)
            .returning(*EVENT_COLUMNS)
        )
        async with self._engine.begin() as conn:
            rows = sorted((await conn.execute(query)).all(), key=lambda row: row.seq)
        return [row_event(row) for row in rows]


async def record_event(conn: AsyncConnection, event: Event, now: datetime) -> None:
    """Write an outbox event in the caller's transaction: the write it announces and the
    event commit together, or neither does."""
    await conn.execute(outbox.insert().values(outbox_row(event, now)))


EVENT_COLUMNS = (
    outbox.c.seq,
    outbox.c.kind,
    outbox.c.post_id,
    outbox.c.author_id,
    outbox.c.target_id,
    outbox.c.group_key,
)


async def record_notification(conn: AsyncConnection, event: Notified | None, now: datetime) -> None:
    """A notification event (None: it notifies nobody), in the caller's transaction."""
    if event is not None:
        await record_event(conn, event, now)


def outbox_row(event: Event, now: datetime) -> dict[str, object]:
    return {**event_fields(event), "created_at": now}


def event_fields(event: Event) -> dict[str, object]:
    """An event as the outbox and the dead letters store it."""
    fields: dict[str, object] = {
        "kind": KINDS[type(event)],
        "post_id": event.post_id,
        "author_id": event.author_id,
        # Every row has every key: rows inserted together take the first row's keys.
        "target_id": None,
        "group_key": None,
    }
    if isinstance(event, Notified):
        fields.update(target_id=event.recipient_id, group_key=event.group_key)
        if event.undo:
            fields["kind"] = UNDONE
    if isinstance(event, AccountErased):
        fields.update(target_id=event.app_id, group_key=event.external_id)
    return fields


def row_event(row: Any, seq: int | None = None) -> Event:
    """The event of an outbox (or dead letter) row."""
    seq = row.seq if seq is None else seq
    if row.kind in ("notified", UNDONE):
        undo = row.kind == UNDONE
        return Notified(row.target_id, row.author_id, row.post_id, row.group_key, undo, seq)
    if row.kind == "account_erased":
        return AccountErased(row.author_id, row.target_id, row.group_key, seq=seq)
    return to_event(seq, row.kind, row.post_id, row.author_id)


def to_event(seq: int, kind: str, post_id: int, author_id: int) -> Event:
    if kind == "post_published":
        return PostPublished(post_id=post_id, author_id=author_id, seq=seq)
    if kind == "post_deleted":
        return PostDeleted(post_id=post_id, author_id=author_id, seq=seq)
    if kind == "author_pushed":
        return AuthorPushed(author_id=author_id, seq=seq)
    if kind == "post_edited":
        return PostEdited(post_id=post_id, author_id=author_id, seq=seq)
    raise ValueError(f"unknown outbox event kind {kind!r}")
