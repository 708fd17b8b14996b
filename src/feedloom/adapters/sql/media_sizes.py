"""SqlMediaSizes: the media still waiting for sizes, and recording them.

Pending work is `uploaded_at IS NOT NULL AND sized_at IS NULL`, one range of the
(sized_at, uploaded_at) index. Recording updates the media row first, then the post it
is attached to (read with FOR UPDATE on PostgreSQL: two media of one post sized at
once must not overwrite each other's entry); see posts._attached for the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.posts import media_from_row
from feedloom.adapters.sql.schema import media, posts
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
        self, media_id: int, sizes: Sequence[MediaSize], now: datetime
    ) -> int | None:
        stored = [{"url": s.url, "w": s.width, "h": s.height} for s in sizes]
        async with self._engine.begin() as conn:
            await conn.execute(
                update(media).where(media.c.id == media_id).values(sizes=stored, sized_at=now)
            )
            post_id: int | None = (
                await conn.execute(select(media.c.attached_to).where(media.c.id == media_id))
            ).scalar()
            if post_id is None:
                return None
            query = select(posts.c.media).where(posts.c.id == post_id).with_for_update()
            items: list[dict[str, Any]] | None = (await conn.execute(query)).scalar()
            if items is None:
                return None
            changed = [
                {**item, "sizes": stored} if item["id"] == str(media_id) else item for item in items
            ]
            await conn.execute(update(posts).where(posts.c.id == post_id).values(media=changed))
        return post_id
