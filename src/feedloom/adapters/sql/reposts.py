"""SqlReposts: a repost is a post row naming its original (migration 0015).

The row, its outbox event (fan-out carries it as an ID like any post) and the
original's `reposts` count change in one transaction. The partial unique index on
(author_id, repost_of) over live rows makes a retried or concurrent PUT create one
repost: the loser's transaction rolls back whole and reads the winner's ID.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import among
from feedloom.adapters.sql.outbox import record_event, record_notification
from feedloom.adapters.sql.posts import post_row, unrepost_counted
from feedloom.adapters.sql.schema import posts
from feedloom.domain.errors import NotFound
from feedloom.domain.model import Post, PostDeleted, PostPublished
from feedloom.domain.notifications import NotificationType, notify

REPOST = NotificationType.REPOST


class SqlReposts:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def repost(self, repost: Post, now: datetime) -> int:
        assert repost.repost_of is not None
        try:
            async with self._engine.begin() as conn:
                existing = await _live_repost(conn, repost.author_id, repost.repost_of)
                if existing is not None:
                    return existing
                original_author = (
                    await conn.execute(
                        update(posts)
                        .where(posts.c.id == repost.repost_of, posts.c.deleted_at.is_(None))
                        .values(reposts=posts.c.reposts + 1)
                        .returning(posts.c.author_id)
                    )
                ).scalar()
                if original_author is None:
                    raise NotFound("the post to repost is gone")
                await conn.execute(posts.insert().values(post_row(repost)))
                await record_event(conn, PostPublished(repost.id, repost.author_id), now)
                await record_notification(
                    conn,
                    notify(REPOST, repost.author_id, original_author, repost.repost_of, now),
                    now,
                )
        except IntegrityError:
            async with self._engine.connect() as conn:
                existing = await _live_repost(conn, repost.author_id, repost.repost_of)
            if existing is None:
                raise
            return existing
        return repost.id

    async def unrepost(self, user_id: int, original_id: int, now: datetime) -> int | None:
        async with self._engine.begin() as conn:
            repost_id = (
                await conn.execute(
                    update(posts)
                    .where(
                        posts.c.author_id == user_id,
                        posts.c.repost_of == original_id,
                        posts.c.deleted_at.is_(None),
                    )
                    .values(deleted_at=now)
                    .returning(posts.c.id)
                )
            ).scalar()
            if repost_id is None:
                return None
            await unrepost_counted(conn, int(repost_id), user_id, original_id)
            await record_event(conn, PostDeleted(int(repost_id), user_id), now)
        return int(repost_id)

    async def reposted(self, user_id: int, limit: int) -> list[int]:
        query = (
            select(posts.c.repost_of)
            .where(
                posts.c.author_id == user_id,
                posts.c.repost_of.is_not(None),
                posts.c.deleted_at.is_(None),
            )
            .order_by(posts.c.id.desc())
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [int(original) for original in (await conn.execute(query)).scalars()]

    async def reposted_among(self, user_id: int, original_ids: Sequence[int]) -> set[int]:
        if not original_ids:
            return set()
        query = select(posts.c.repost_of).where(
            posts.c.author_id == user_id,
            among(self._dialect, posts.c.repost_of, set(original_ids)),
            posts.c.deleted_at.is_(None),
        )
        async with self._engine.connect() as conn:
            return {int(original) for original in (await conn.execute(query)).scalars()}


async def _live_repost(conn: AsyncConnection, user_id: int, original_id: int) -> int | None:
    query = select(posts.c.id).where(
        posts.c.author_id == user_id,
        posts.c.repost_of == original_id,
        posts.c.deleted_at.is_(None),
    )
    found = (await conn.execute(query)).scalar()
    return int(found) if found is not None else None
