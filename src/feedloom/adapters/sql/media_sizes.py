"""SqlMediaSizes: the media still waiting for sizes, recording them, and orphans.

Pending work is `uploaded_at IS NOT NULL AND sized_at IS NULL`, one range of the
(sized_at, uploaded_at) index. Recording updates the media row first, then the post it
is attached to (read with FOR UPDATE on PostgreSQL: two media of one post sized at
once must not overwrite each other's entry); see posts._attached for the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.posts import media_from_row
from feedloom.adapters.sql.schema import media, posts, users
from feedloom.domain.model import Media, MediaSize


class SqlMediaSizes:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def unsized(self, limit: int) -> list[Media]:
        query = (
            select(media)
            .where(media.c.sized_at.is_(None), media.c.uploaded_at.is_not(None))
            .order_by(media.c.uploaded_at)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [media_from_row(row) for row in (await conn.execute(query)).all()]

    async def record_sizes(
        self, media_id: int, sizes: Sequence[MediaSize], avatar_url: str | None, now: datetime
    ) -> tuple[int | None, int | None]:
        stored = [{"url": s.url, "w": s.width, "h": s.height} for s in sizes]
        async with self._engine.begin() as conn:
            await conn.execute(
                update(media).where(media.c.id == media_id).values(sizes=stored, sized_at=now)
            )
            query = select(media.c.url, media.c.attached_to, media.c.avatar_of)
            row = (await conn.execute(query.where(media.c.id == media_id))).first()
            if row is None:
                return None, None
            post_id = await _size_post(conn, row.attached_to, media_id, stored)
            user_id: int | None = row.avatar_of if avatar_url is not None else None
            if user_id is not None:
                # Only while it is still this user's avatar (they may have changed it).
                await conn.execute(
                    update(users)
                    .where(users.c.id == user_id, users.c.avatar == row.url)
                    .values(avatar=avatar_url)
                )
        return post_id, user_id

    async def orphans(self, created_before: datetime, limit: int) -> list[Media]:
        query = (
            select(media)
            .where(
                media.c.attached_to.is_(None),
                media.c.avatar_of.is_(None),
                media.c.created_at < created_before,
            )
            .order_by(media.c.created_at)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [media_from_row(row) for row in (await conn.execute(query)).all()]

    async def delete_media(self, media_ids: Sequence[int]) -> None:
        if not media_ids:
            return
        # Checked again: a post may have attached one since it was listed.
        query = delete(media).where(
            media.c.id.in_(list(media_ids)),
            media.c.attached_to.is_(None),
            media.c.avatar_of.is_(None),
        )
        async with self._engine.begin() as conn:
            await conn.execute(query)


async def _size_post(
    conn: AsyncConnection, post_id: int | None, media_id: int, stored: list[dict[str, Any]]
) -> int | None:
    if not post_id:
        return None
    query = select(posts.c.media).where(posts.c.id == post_id).with_for_update()
    items: list[dict[str, Any]] | None = (await conn.execute(query)).scalar()
    if items is None:
        return None
    changed = [{**item, "sizes": stored} if item["id"] == str(media_id) else item for item in items]
    await conn.execute(update(posts).where(posts.c.id == post_id).values(media=changed))
    return post_id
