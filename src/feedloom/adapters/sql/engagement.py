"""SqlEngagement: likes (the unique truth behind counts and liked_by_me) and comments.

A comment by a suspended or deleted account is hidden from everyone, like its posts:
left out of every page and every count here (`shown_comments`), so a suspension hides
it on the next read and a reinstatement brings it back, with no row changed."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import insert_ignoring_duplicates, utc
from feedloom.adapters.sql.idempotency import claim_key, stored_response
from feedloom.adapters.sql.schema import account_live, comments, likes, users
from feedloom.domain.model import Comment, Counts
from feedloom.ports import StoredResponse

# The comments anyone may see: their authors' accounts are live (schema.account_live).
shown_comments = comments.join(users, users.c.id == comments.c.author_id)


class SqlEngagement:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def like(self, post_id: int, user_id: int, now: datetime) -> bool:
        insert = insert_ignoring_duplicates(self._dialect, likes).values(
            post_id=post_id, user_id=user_id, created_at=now
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(insert)).rowcount == 1

    async def unlike(self, post_id: int, user_id: int) -> bool:
        query = delete(likes).where(likes.c.post_id == post_id, likes.c.user_id == user_id)
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def liked_among(self, user_id: int, post_ids: Sequence[int]) -> set[int]:
        if not post_ids:
            return set()
        query = select(likes.c.post_id).where(
            likes.c.user_id == user_id, likes.c.post_id.in_(set(post_ids))
        )
        async with self._engine.connect() as conn:
            return set((await conn.execute(query)).scalars())

    async def liked_since(self, user_id: int, since_post_id: int, limit: int) -> list[int]:
        query = (
            select(likes.c.post_id)
            .where(likes.c.user_id == user_id, likes.c.post_id >= since_post_id)
            .order_by(likes.c.post_id.desc())
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())

    async def add_comment(
        self, comment: Comment, idempotency_key: str | None, request_hash: str, now: datetime
    ) -> StoredResponse:
        row = {
            "id": comment.id,
            "post_id": comment.post_id,
            "author_id": comment.author_id,
            "text": comment.text,
            "created_at": comment.created_at,
        }
        try:
            async with self._engine.begin() as conn:
                if idempotency_key is not None:
                    await claim_key(
                        conn,
                        comment.author_id,
                        idempotency_key,
                        request_hash,
                        comment.id,
                        "comment",
                        now,
                    )
                await conn.execute(comments.insert().values(row))
        except IntegrityError:
            stored = None
            if idempotency_key is not None:
                stored = await self.stored_response(comment.author_id, idempotency_key)
            if stored is None:
                raise
            return stored
        return StoredResponse(request_hash, comment.id, "comment")

    async def stored_response(self, user_id: int, idempotency_key: str) -> StoredResponse | None:
        return await stored_response(self._engine, user_id, idempotency_key)

    async def comments(
        self, post_id: int, before: int | None, limit: int, hidden: Collection[int] = ()
    ) -> list[Comment]:
        query = (
            select(comments)
            .select_from(shown_comments)
            .where(comments.c.post_id == post_id, account_live)
        )
        if before is not None:
            query = query.where(comments.c.id < before)
        if hidden:
            query = query.where(comments.c.author_id.not_in(set(hidden)))
        query = query.order_by(comments.c.id.desc()).limit(limit)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_comment(row) for row in rows]

    async def comment(self, post_id: int, comment_id: int) -> Comment | None:
        query = select(comments).where(comments.c.post_id == post_id, comments.c.id == comment_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).one_or_none()
        return None if row is None else _comment(row)

    async def delete_comment(self, post_id: int, comment_id: int, author_id: int) -> bool:
        statement = delete(comments).where(
            comments.c.post_id == post_id,
            comments.c.id == comment_id,
            comments.c.author_id == author_id,
        )
        async with self._engine.begin() as conn:
            return bool((await conn.execute(statement)).rowcount == 1)

    async def comments_by(
        self, post_ids: Sequence[int], authors: Collection[int]
    ) -> dict[int, int]:
        if not post_ids or not authors:
            return {}
        query = (
            select(comments.c.post_id, func.count())
            .select_from(shown_comments)
            .where(
                comments.c.post_id.in_(set(post_ids)),
                comments.c.author_id.in_(set(authors)),
                account_live,
            )
            .group_by(comments.c.post_id)
        )
        async with self._engine.connect() as conn:
            counted: dict[int, int] = dict((await conn.execute(query)).all())
        return counted

    async def commented_post_ids(self, author_id: int, after: int, limit: int) -> list[int]:
        # The (author_id, idempotency_key) unique index finds the author's comments.
        query = (
            select(comments.c.post_id)
            .where(comments.c.author_id == author_id, comments.c.post_id > after)
            .distinct()
            .order_by(comments.c.post_id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())

    async def true_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        if not post_ids:
            return {}
        wanted = set(post_ids)
        like_query = (
            select(likes.c.post_id, func.count())
            .where(likes.c.post_id.in_(wanted))
            .group_by(likes.c.post_id)
        )
        comment_query = (
            select(comments.c.post_id, func.count())
            .select_from(shown_comments)
            .where(comments.c.post_id.in_(wanted), account_live)
            .group_by(comments.c.post_id)
        )
        async with self._engine.connect() as conn:
            like_counts: dict[int, int] = dict((await conn.execute(like_query)).all())
            comment_counts: dict[int, int] = dict((await conn.execute(comment_query)).all())
        return {
            post_id: Counts(
                likes=like_counts.get(post_id, 0), comments=comment_counts.get(post_id, 0)
            )
            for post_id in wanted
        }

    async def flagged_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        # From the flagged accounts (a partial index holds just them) to their likes and
        # comments of these posts: the cost follows the flagged accounts' engagement, not
        # the posts' like counts, and is one tiny index scan when nobody is flagged.
        if not post_ids:
            return {}
        wanted = set(post_ids)
        flagged = select(users.c.id).where(users.c.flagged_at.is_not(None)).scalar_subquery()
        like_query = (
            select(likes.c.post_id, func.count())
            .where(likes.c.user_id.in_(flagged), likes.c.post_id.in_(wanted))
            .group_by(likes.c.post_id)
        )
        comment_query = (
            select(comments.c.post_id, func.count())
            .select_from(shown_comments)
            .where(comments.c.author_id.in_(flagged), comments.c.post_id.in_(wanted), account_live)
            .group_by(comments.c.post_id)
        )
        async with self._engine.connect() as conn:
            like_counts: dict[int, int] = dict((await conn.execute(like_query)).all())
            comment_counts: dict[int, int] = dict((await conn.execute(comment_query)).all())
        return {
            post_id: Counts(like_counts.get(post_id, 0), comment_counts.get(post_id, 0))
            for post_id in like_counts.keys() | comment_counts.keys()
        }


def _comment(row: Any) -> Comment:
    return Comment(
        row.id, row.post_id, row.author_id, row.text, utc(row.created_at) or row.created_at
    )
