"""SqlThreads: a post's direct replies and its thread, by key.

Direct replies come from `(in_reply_to, id)`, newest first; a thread's descendants from
`thread_path`, one prefix range in depth-first order (domain/threads.py). Both leave
out deleted replies and those of the authors the reader hides, in the query, so a page
stays full; the rest of the read-time rule is the caller's (read/threads.py).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.schema import posts
from feedloom.domain.threads import path_of, subtree_end


class SqlThreads:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def thread_path(self, post_id: int) -> str | None:
        query = select(posts.c.thread_path).where(posts.c.id == post_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else path_of(post_id, row.thread_path)

    async def descendants(
        self, path: str, after: str | None, limit: int, hidden: Collection[int] = ()
    ) -> list[tuple[int, str]]:
        query = (
            select(posts.c.id, posts.c.thread_path)
            .where(
                posts.c.thread_path > (after or path),
                posts.c.thread_path < subtree_end(path),
                posts.c.deleted_at.is_(None),
            )
            .order_by(posts.c.thread_path)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(_without(query, hidden))).all()
        return [(row.id, row.thread_path) for row in rows]

    async def reply_ids(
        self, post_id: int, before: int | None, limit: int, hidden: Collection[int] = ()
    ) -> list[int]:
        query = select(posts.c.id).where(
            posts.c.in_reply_to == post_id, posts.c.deleted_at.is_(None)
        )
        if before is not None:
            query = query.where(posts.c.id < before)
        query = _without(query, hidden).order_by(posts.c.id.desc()).limit(limit)
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())


def _without(query: Any, hidden: Collection[int]) -> Any:
    return query.where(posts.c.author_id.not_in(set(hidden))) if hidden else query
