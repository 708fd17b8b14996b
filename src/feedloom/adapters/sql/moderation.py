"""SqlModeration: held posts, reports and suspicious accounts (migration 0011)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.outbox import record_event, record_notification
from feedloom.adapters.sql.schema import account_live, posts, reports, users
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import PostPublished, Role
from feedloom.domain.notifications import NotificationType, notify
from feedloom.ports import QueuedPost

HELD, RELEASED = "held", "released"
MODERATION = NotificationType.MODERATION
REASONS_SHOWN = 3


class SqlModeration:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def hold(self, post_id: int, reason: str) -> bool:
        query = (
            update(posts)
            .where(
                posts.c.id == post_id, posts.c.moderation.is_(None), posts.c.deleted_at.is_(None)
            )
            .values(moderation=HELD, moderation_reason=reason[:200])
            .returning(posts.c.author_id)
        )
        now = created_at_of(post_id)  # held as it is published: the post's own time
        async with self._engine.begin() as conn:
            author_id = (await conn.execute(query)).scalar()
            if author_id is None:
                return False
            event = notify(MODERATION, 0, author_id, post_id, now, outcome="held")
            await record_notification(conn, event, now)
        return True

    async def release(self, post_id: int, now: datetime) -> bool:
        async with self._engine.begin() as conn:
            author_id = (
                await conn.execute(
                    update(posts)
                    .where(
                        posts.c.id == post_id,
                        posts.c.moderation == HELD,
                        posts.c.deleted_at.is_(None),
                    )
                    .values(moderation=RELEASED)
                    .returning(posts.c.author_id)
                )
            ).scalar()
            if author_id is None:
                return False
            # Fan-out takes it from here as if it had just been published.
            await record_event(conn, PostPublished(post_id, author_id), now)
            event = notify(MODERATION, 0, author_id, post_id, now, outcome="released")
            await record_notification(conn, event, now)
        return True

    async def report(self, post_id: int, reporter_id: int, reason: str, now: datetime) -> bool:
        row = {"post_id": post_id, "reporter_id": reporter_id, "reason": reason, "created_at": now}
        try:
            async with self._engine.begin() as conn:
                await conn.execute(reports.insert().values(row))
        except IntegrityError:
            return False  # this reporter reported it already
        return True

    async def queue(self, after: int | None, limit: int) -> list[QueuedPost]:
        reported = select(reports.c.post_id).distinct()
        query = (
            select(posts.c.id, posts.c.author_id, posts.c.moderation, posts.c.moderation_reason)
            .where(
                posts.c.deleted_at.is_(None),
                (posts.c.moderation == HELD) | posts.c.id.in_(reported),
            )
            .order_by(posts.c.id)
            .limit(limit)
        )
        if after is not None:
            query = query.where(posts.c.id > after)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            counted = await self._reports_of(conn, [row.id for row in rows])
        return [
            QueuedPost(
                post_id=row.id,
                author_id=row.author_id,
                held_reason=row.moderation_reason if row.moderation == HELD else None,
                reports=len(counted.get(row.id, ())),
                reasons=tuple(counted.get(row.id, ())[:REASONS_SHOWN]),
            )
            for row in rows
        ]

    async def _reports_of(
        self, conn: AsyncConnection, post_ids: Sequence[int]
    ) -> dict[int, list[str]]:
        if not post_ids:
            return {}
        query = (
            select(reports.c.post_id, reports.c.reason)
            .where(reports.c.post_id.in_(post_ids))
            .order_by(reports.c.created_at.desc())
        )
        found: defaultdict[int, list[str]] = defaultdict(list)
        for row in await conn.execute(query):
            found[row.post_id].append(row.reason)
        return found

    async def role_of(self, user_id: int) -> Role | None:
        query = select(users.c.role).where(users.c.id == user_id, account_live)
        async with self._engine.connect() as conn:
            role = (await conn.execute(query)).scalar()
        return Role(role) if role else None

    async def set_flagged(self, user_id: int, at: datetime | None) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id == user_id).values(flagged_at=at))

    async def flagged_among(self, user_ids: Sequence[int]) -> set[int]:
        if not user_ids:
            return set()
        query = select(users.c.id).where(
            users.c.id.in_(set(user_ids)), users.c.flagged_at.is_not(None)
        )
        async with self._engine.connect() as conn:
            return set((await conn.execute(query)).scalars())
