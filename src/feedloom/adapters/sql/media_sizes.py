"""SqlMediaSizes: the media pipeline's rows. Uploads sent straight to the object store
(received, then checked or discarded), the media still waiting for sizes, recording
them, and orphans.

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

    async def awaiting_upload(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]:
        if not media_ids:
            return []
        query = select(media).where(
            media.c.owner_id == owner_id,
            media.c.id.in_(set(media_ids)),
            media.c.uploaded_at.is_(None),
        )
        async with self._engine.connect() as conn:
            return [media_from_row(row) for row in (await conn.execute(query)).all()]

    async def mark_received(self, media_id: int, now: datetime) -> bool:
        query = (
            update(media)
            .where(media.c.id == media_id, media.c.uploaded_at.is_(None))
            .values(uploaded_at=now, pending=True)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

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
            post_id = await _change_entry(conn, row.attached_to, media_id, {"sizes": stored})
            user_id: int | None = row.avatar_of if avatar_url is not None else None
            if user_id is not None:
                # Only while it is still this user's avatar (they may have changed it).
                await conn.execute(
                    update(users)
                    .where(users.c.id == user_id, users.c.avatar == row.url)
                    .values(avatar=avatar_url)
                )
        return post_id, user_id

    async def record_checked(self, media_id: int, width: int, height: int) -> int | None:
        checked = {"w": width, "h": height}
        async with self._engine.begin() as conn:
            found = await conn.execute(
                update(media)
                .where(media.c.id == media_id)
                .values(width=width, height=height, pending=False)
                .returning(media.c.attached_to)
            )
            row = found.first()
            if row is None:
                return None
            return await _change_entry(conn, row.attached_to, media_id, checked)

    async def discard_media(self, media_id: int) -> tuple[int | None, int | None]:
        async with self._engine.begin() as conn:
            gone = delete(media).where(media.c.id == media_id)
            found = await conn.execute(
                gone.returning(media.c.url, media.c.attached_to, media.c.avatar_of)
            )
            row = found.first()
            if row is None:
                return None, None
            post_id = await _change_entry(conn, row.attached_to, media_id, None)
            if row.avatar_of is not None:
                await conn.execute(
                    update(users)
                    .where(users.c.id == row.avatar_of, users.c.avatar == row.url)
                    .values(avatar=None)
                )
        return post_id, row.avatar_of

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


async def _change_entry(
    conn: AsyncConnection, post_id: int | None, media_id: int, values: dict[str, Any] | None
) -> int | None:
    """Update the medium's entry in the post's media (read FOR UPDATE, see the module
    docstring): `values` replace its fields and end its pending state; None removes it."""
    if not post_id:
        return None
    query = select(posts.c.media).where(posts.c.id == post_id).with_for_update()
    items: list[dict[str, Any]] | None = (await conn.execute(query)).scalar()
    if items is None:
        return None
    changed = []
    for item in items:
        if item["id"] != str(media_id):
            changed.append(item)
        elif values is not None:
            changed.append({**{k: v for k, v in item.items() if k != "pending"}, **values})
    await conn.execute(update(posts).where(posts.c.id == post_id).values(media=changed))
    return post_id
