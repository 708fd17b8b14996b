"""SqlTags: resolving mentions, reading them back, tags and who follows them.

Reads of posts by tag are one range of `post_tags`' primary key (tag_id, post_id),
newest first; the posts' rows are joined only to leave out held posts and suspended
authors, so a page is not cut short by what the read-time filter would drop anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import insert_ignoring_duplicates, utc
from feedloom.adapters.sql.facets import resolve_usernames, tag_ids
from feedloom.adapters.sql.schema import post_mentions, post_tags, posts, tag_follows, tags
from feedloom.ports.tags import Mention, TagRecord


class SqlTags:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def resolve_usernames(
        self, author_id: int, names: Sequence[str]
    ) -> dict[str, tuple[int, str]]:
        async with self._engine.connect() as conn:
            return await resolve_usernames(conn, author_id, names)

    async def mentions_in(self, post_ids: Sequence[int]) -> list[Mention]:
        if not post_ids:
            return []
        query = (
            select(post_mentions)
            .where(post_mentions.c.post_id.in_(set(post_ids)))
            .order_by(post_mentions.c.post_id, post_mentions.c.user_id)
        )
        async with self._engine.connect() as conn:
            return [_mention(row) for row in await conn.execute(query)]

    async def mentions_of(self, user_id: int, before: int | None, limit: int) -> list[Mention]:
        m = post_mentions.c
        query = (
            select(post_mentions)
            .join(posts, posts.c.id == m.post_id)
            .where(m.user_id == user_id, posts.c.deleted_at.is_(None))
            .order_by(m.post_id.desc())
            .limit(limit)
        )
        if before is not None:
            query = query.where(m.post_id < before)
        async with self._engine.connect() as conn:
            return [_mention(row) for row in await conn.execute(query)]

    async def tags(self, names: Sequence[str]) -> dict[str, TagRecord]:
        if not names:
            return {}
        query = select(tags).where(tags.c.name.in_(list(names)))
        async with self._engine.connect() as conn:
            return {row.name: _tag(row) for row in await conn.execute(query)}

    async def follow(self, user_id: int, name: str, now: datetime) -> bool:
        async with self._engine.begin() as conn:
            tag_id = (await tag_ids(conn, [name], create=True))[name]
            row = {"user_id": user_id, "tag_id": tag_id, "created_at": now}
            result = await conn.execute(
                insert_ignoring_duplicates(self._dialect, tag_follows).values(row)
            )
        return bool(result.rowcount)

    async def unfollow(self, user_id: int, name: str) -> bool:
        found = select(tags.c.id).where(tags.c.name == name).scalar_subquery()
        query = delete(tag_follows).where(
            tag_follows.c.user_id == user_id, tag_follows.c.tag_id == found
        )
        async with self._engine.begin() as conn:
            return bool((await conn.execute(query)).rowcount)

    async def followed(self, user_id: int, limit: int) -> list[TagRecord]:
        query = (
            select(tags)
            .join(tag_follows, tag_follows.c.tag_id == tags.c.id)
            .where(tag_follows.c.user_id == user_id)
            .order_by(tag_follows.c.created_at.desc(), tags.c.id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [_tag(row) for row in await conn.execute(query)]

    async def tag_post_ids(self, tag_id: int, before: int | None, limit: int) -> list[int]:
        return [post_id for post_id, _ in await self.tagged_post_ids([tag_id], before, limit)]

    async def tagged_post_ids(
        self, tag_ids: Sequence[int], before: int | None, limit: int
    ) -> list[tuple[int, int]]:
        if not tag_ids:
            return []
        t = post_tags.c
        query = (
            _shown(select(t.post_id, t.tag_id).where(t.tag_id.in_(set(tag_ids))))
            .order_by(t.post_id.desc(), t.tag_id)
            .limit(limit * len(tag_ids))
        )
        if before is not None:
            query = query.where(t.post_id < before)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        found: dict[int, int] = {}
        for row in rows:
            found.setdefault(row.post_id, row.tag_id)
        return list(found.items())[:limit]

    async def public_tags_of(self, post_ids: Sequence[int]) -> list[tuple[int, int]]:
        if not post_ids:
            return []
        t = post_tags.c
        query = _shown(select(t.tag_id, t.post_id).where(t.post_id.in_(set(post_ids))))
        async with self._engine.connect() as conn:
            return [(row.tag_id, row.post_id) for row in await conn.execute(query)]

    async def tags_by_id(self, tag_ids: Sequence[int]) -> dict[int, TagRecord]:
        if not tag_ids:
            return {}
        query = select(tags).where(tags.c.id.in_(set(tag_ids)))
        async with self._engine.connect() as conn:
            return {row.id: _tag(row) for row in await conn.execute(query)}

    async def used_between(
        self, author_id: int, tag_ids: Sequence[int], after: int, before: int
    ) -> set[int]:
        if not tag_ids:
            return set()
        t = post_tags.c
        query = select(t.tag_id).where(
            t.author_id == author_id,
            t.post_id > after,
            t.post_id < before,
            t.tag_id.in_(set(tag_ids)),
        )
        async with self._engine.connect() as conn:
            return set((await conn.execute(query.distinct())).scalars())


def _shown(query: Select[Any]) -> Select[Any]:
    """Rows of `post_tags` whose posts a followed tag brings: public, live, not held."""
    return query.join(posts, posts.c.id == post_tags.c.post_id).where(
        post_tags.c.public.is_(True),
        posts.c.deleted_at.is_(None),
        posts.c.moderation.is_distinct_from("held"),
    )


def _mention(row: object) -> Mention:
    created_at = utc(row.created_at)  # type: ignore[attr-defined]
    assert created_at is not None
    return Mention(row.post_id, row.user_id, row.author_id, created_at)  # type: ignore[attr-defined]


def _tag(row: object) -> TagRecord:
    return TagRecord(row.id, row.name, row.posts_count)  # type: ignore[attr-defined]
