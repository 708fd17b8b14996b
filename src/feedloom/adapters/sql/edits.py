"""SqlPostEdits: a post's edit and its history, in one transaction each.

The edit reads the post's current row under a lock (PostgreSQL `FOR UPDATE`; SQLite
has one writer), keeps it as the next version in `post_versions`, and writes the new
text and media over the row: so two edits at once both land, one after the other,
and no version is lost. The text's facets are the edit's, its mention and tag rows
made to match them; the search index follows the row; all in the same transaction
(migration 0022). The Idempotency-Key row goes first, as for a post. No outbox event:
timelines hold IDs, and the text they show is the view, dropped after the commit.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import utc
from feedloom.adapters.sql.facets import record_facets
from feedloom.adapters.sql.idempotency import claim_key, stored_response
from feedloom.adapters.sql.outbox import record_event
from feedloom.adapters.sql.posts import (
    media_from_json,
    media_from_row,
    media_json,
    notify_mentioned,
)
from feedloom.adapters.sql.schema import media, post_versions, posts
from feedloom.domain.errors import NotFound
from feedloom.domain.facets import Facet, facets_json
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Media, Post, PostEdited, PostVersion, Visibility
from feedloom.ports import StoredResponse


class SqlPostEdits:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._lock = engine.dialect.name == "postgresql"

    async def edit_post(
        self,
        post_id: int,
        author_id: int,
        text: str,
        facets: tuple[Facet, ...],
        new_media: tuple[Media, ...],
        idempotency_key: str | None,
        request_hash: str,
        now: datetime,
    ) -> StoredResponse:
        try:
            async with self._engine.begin() as conn:
                if idempotency_key is not None:
                    await claim_key(
                        conn, author_id, idempotency_key, request_hash, post_id, "edit", now
                    )
                current = await self._current(conn, post_id, author_id)
                version = await conn.scalar(
                    select(func.count()).where(post_versions.c.post_id == post_id)
                )
                await conn.execute(
                    post_versions.insert().values(
                        post_id=post_id,
                        version=int(version or 0) + 1,
                        text=current.text,
                        media=current.media,
                        written_at=utc(current.edited_at) or created_at_of(post_id),
                    )
                )
                stored_media = await _attach(conn, post_id, new_media)
                await conn.execute(
                    update(posts)
                    .where(posts.c.id == post_id)
                    .values(
                        text=text,
                        media=stored_media,
                        facets=facets_json(facets) if facets else None,
                        edited_at=now,
                    )
                )
                # Mentions added by the edit are recorded (and ones it took out dropped),
                # tags moved, as for a new post (adapters/sql/facets.py).
                edited = Post(
                    post_id,
                    author_id,
                    text,
                    Visibility(current.visibility),
                    created_at_of(post_id),
                    facets=facets,
                )
                mentioned = await record_facets(conn, edited, now)
                # Only the newly mentioned hear of it; the author replied to was told.
                await notify_mentioned(conn, edited, mentioned, now, current.reply_to_author_id)
                await record_event(conn, PostEdited(post_id, author_id), now)  # webhooks
        except IntegrityError:
            if idempotency_key is None:
                raise
            stored = await stored_response(self._engine, author_id, idempotency_key)
            if stored is None:
                raise
            return stored
        return StoredResponse(request_hash, post_id, "edit")

    async def versions(self, post_id: int) -> list[PostVersion]:
        query = (
            select(post_versions)
            .where(post_versions.c.post_id == post_id)
            .order_by(post_versions.c.version)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            PostVersion(
                row.text,
                tuple(media_from_json(item) for item in row.media),
                utc(row.written_at) or row.written_at,
            )
            for row in rows
        ]

    async def _current(self, conn: AsyncConnection, post_id: int, author_id: int) -> Any:
        query = select(
            posts.c.text,
            posts.c.media,
            posts.c.edited_at,
            posts.c.visibility,
            posts.c.reply_to_author_id,
        ).where(
            posts.c.id == post_id,
            posts.c.author_id == author_id,
            posts.c.deleted_at.is_(None),
            posts.c.repost_of.is_(None),
        )
        if self._lock:
            query = query.with_for_update()
        row = (await conn.execute(query)).first()
        if row is None:
            raise NotFound("no such post")  # deleted meanwhile
        return row


async def _attach(conn: AsyncConnection, post_id: int, items: tuple[Media, ...]) -> list[Any]:
    """The post's new media list as stored: each medium marked as attached to the post,
    with its (new) alt text, and the sizes the worker recorded, read after the lock
    (as adapters/sql/posts.py does for a new post)."""
    for item in items:
        await conn.execute(
            update(media).where(media.c.id == item.id).values(attached_to=post_id, alt=item.alt)
        )
    if not items:
        return []
    ids = [item.id for item in items]
    rows = {row.id: row for row in await conn.execute(select(media).where(media.c.id.in_(ids)))}
    return [media_json(media_from_row(rows[m.id]) if m.id in rows else m) for m in items]
