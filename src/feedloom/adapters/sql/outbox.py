"""SqlOutbox: the relay's side of the transactional outbox.

Events are claimed with `FOR UPDATE SKIP LOCKED` on PostgreSQL, so any number of
relays can run without handing out the same event twice; SQLite has one writer at a
time, which gives the same guarantee. Claimed rows are deleted by the transaction that
publishes them: if publishing fails, the transaction rolls back and they stay.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.schema import outbox
from feedloom.domain.model import Event, PostDeleted, PostPublished


class SqlOutbox:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def relay(self, publish: Callable[[Sequence[Event]], Awaitable[None]], limit: int) -> int:
        # Claim by deleting, in the transaction that publishes: a write lock from
        # the first statement (no read-then-write upgrade for SQLite to trip on).
        claim = select(outbox.c.seq).order_by(outbox.c.seq).limit(limit)
        if self._dialect == "postgresql":
            claim = claim.with_for_update(skip_locked=True)
        claim_rows = (
            delete(outbox)
            .where(outbox.c.seq.in_(claim.scalar_subquery()))
            .returning(outbox.c.seq, outbox.c.kind, outbox.c.post_id, outbox.c.author_id)
        )
        async with self._engine.begin() as conn:
            rows = sorted((await conn.execute(claim_rows)).all(), key=lambda row: row.seq)
            if rows:
                await publish([_event(row.kind, row.post_id, row.author_id) for row in rows])
        return len(rows)

    async def pending(self) -> int:
        async with self._engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(outbox))).scalar() or 0)


def _event(kind: str, post_id: int, author_id: int) -> Event:
    if kind == "post_published":
        return PostPublished(post_id=post_id, author_id=author_id)
    if kind == "post_deleted":
        return PostDeleted(post_id=post_id, author_id=author_id)
    raise ValueError(f"unknown outbox event kind {kind!r}")
