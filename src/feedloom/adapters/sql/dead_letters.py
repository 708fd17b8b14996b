"""SqlDeadLetters: events that failed fan-out on every try, kept with their error.

A replay moves the event back into the outbox in one transaction, so it is fanned out
like a new one (or dead-lettered again, never lost in between)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import utc
from feedloom.adapters.sql.outbox import event_fields, outbox_row, row_event
from feedloom.adapters.sql.schema import dead_events, outbox
from feedloom.domain.model import Event
from feedloom.ports import DeadEvent


class SqlDeadLetters:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def add(self, event: Event, lane: str, attempts: int, error: str, now: datetime) -> int:
        row = {
            **event_fields(event),
            "lane": lane,
            "attempts": attempts,
            "error": error,
            "failed_at": now,
        }
        async with self._engine.begin() as conn:
            result = await conn.execute(
                dead_events.insert().values(row).returning(dead_events.c.id)
            )
            return int(result.scalar_one())

    async def list(self, after: int, limit: int) -> list[DeadEvent]:
        query = select(dead_events).where(dead_events.c.id > after).order_by(dead_events.c.id)
        async with self._engine.connect() as conn:
            return [_dead(row) for row in (await conn.execute(query.limit(limit))).all()]

    async def get(self, dead_id: int) -> DeadEvent | None:
        query = select(dead_events).where(dead_events.c.id == dead_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _dead(row)

    async def replay(self, dead_ids: Sequence[int], now: datetime) -> int:
        taken = delete(dead_events).where(dead_events.c.id.in_(dead_ids)).returning(dead_events)
        async with self._engine.begin() as conn:
            rows = (await conn.execute(taken)).all()
            if rows:
                events = [_dead(row).event for row in rows]
                await conn.execute(outbox.insert(), [outbox_row(e, now) for e in events])
        return len(rows)

    async def count(self) -> int:
        async with self._engine.connect() as conn:
            query = select(func.count()).select_from(dead_events)
            return int((await conn.execute(query)).scalar() or 0)


def _dead(row: Any) -> DeadEvent:
    event = row_event(row, seq=0)
    failed_at = utc(row.failed_at)
    assert failed_at is not None
    return DeadEvent(row.id, event, row.lane, row.attempts, row.error, failed_at)
