"""SqlEngagement: likes (the unique truth behind counts and liked_by_me), and the counts
of likes and comments (a comment is a live direct reply: adapters/sql/threads.py).

A reply by a suspended or deleted account is hidden from everyone, like its posts:
left out of every count here (`shown_replies`), so a suspension hides it on the next
read and a reinstatement brings it back, with no row changed."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import insert_ignoring_duplicates, utc
from feedloom.adapters.sql.outbox import record_notification
from feedloom.adapters.sql.schema import account_live, likes, posts, users
from feedloom.domain.model import Counts
from feedloom.domain.notifications import like_event

# The replies anyone may see: their authors' accounts are live (schema.account_live).
shown_replies = posts.join(users, users.c.id == posts.c.author_id)


class SqlEngagement:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def like(
        self, post_id: int, user_id: int, now: datetime, notify: int | None = None
    ) -> bool:
        insert = insert_ignoring_duplicates(self._dialect, likes).values(
            post_id=post_id, user_id=user_id, created_at=now
        )
        async with self._engine.begin() as conn:
            created = (await conn.execute(insert)).rowcount == 1
            if created:
                event = like_event(user_id, notify, post_id, now)
                await record_notification(conn, event, now)
        return created

    async def unlike(self, post_id: int, user_id: int, notify: int | None = None) -> bool:
        query = (
            delete(likes)
            .where(likes.c.post_id == post_id, likes.c.user_id == user_id)
            .returning(likes.c.created_at)
        )
        async with self._engine.begin() as conn:
            liked_at = utc((await conn.execute(query)).scalar())
            if liked_at is not None:
                # The undo finds the group of the like's own time (its window).
                event = like_event(user_id, notify, post_id, liked_at, undo=True)
                await record_notification(conn, event, liked_at)
        return liked_at is not None

    async def liked_among(self, user_id: int, post_ids: Sequence[int]) -> set[int]:
        if not post_ids:
            return set()
        query = select(likes.c.post_id).where(
            likes.c.user_id == user_id, likes.c.post_id.in_(set(post_ids))
        )
        async with self._engine.connect() as conn:
            return set((await conn.execute(query)).scalars())

    async def liked_since(
        self, user_ids: Sequence[int], since_post_id: int, limit: int
    ) -> dict[int, list[int]]:
        # One range of the (user_id, post_id) index per user, cut at `limit` each by a
        # window over that order (SQLite 3.25+ and PostgreSQL alike).
        newest = func.row_number().over(
            partition_by=likes.c.user_id, order_by=likes.c.post_id.desc()
        )
        ranked = (
            select(likes.c.user_id, likes.c.post_id, newest.label("n"))
            .where(likes.c.user_id.in_(set(user_ids)), likes.c.post_id >= since_post_id)
            .subquery()
        )
        query = (
            select(ranked.c.user_id, ranked.c.post_id)
            .where(ranked.c.n <= limit)
            .order_by(ranked.c.user_id, ranked.c.post_id.desc())
        )
        found: dict[int, list[int]] = {user_id: [] for user_id in user_ids}
        if not user_ids:
            return found
        async with self._engine.connect() as conn:
            for user_id, post_id in await conn.execute(query):
                found[user_id].append(post_id)
        return found

    async def comments_by(
        self, post_ids: Sequence[int], authors: Collection[int]
    ) -> dict[int, int]:
        if not post_ids or not authors:
            return {}
        query = _replies(set(post_ids)).where(posts.c.author_id.in_(set(authors)))
        async with self._engine.connect() as conn:
            counted: dict[int, int] = dict((await conn.execute(query)).all())
        return counted

    async def commented_post_ids(self, author_id: int, after: int, limit: int) -> list[int]:
        # The (author_id, id) index finds the author's posts; their parents, each once.
        query = (
            select(posts.c.in_reply_to)
            .where(posts.c.author_id == author_id, posts.c.in_reply_to > after)
            .distinct()
            .order_by(posts.c.in_reply_to)
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
        comment_query = _replies(wanted)
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
        flagged = (
            select(users.c.id)
            .where(users.c.flagged_at.is_not(None))
            .correlate(None)
            .scalar_subquery()
        )
        like_query = (
            select(likes.c.post_id, func.count())
            .where(likes.c.user_id.in_(flagged), likes.c.post_id.in_(wanted))
            .group_by(likes.c.post_id)
        )
        comment_query = _replies(wanted).where(posts.c.author_id.in_(flagged))
        async with self._engine.connect() as conn:
            like_counts: dict[int, int] = dict((await conn.execute(like_query)).all())
            comment_counts: dict[int, int] = dict((await conn.execute(comment_query)).all())
        return {
            post_id: Counts(like_counts.get(post_id, 0), comment_counts.get(post_id, 0))
            for post_id in like_counts.keys() | comment_counts.keys()
        }


def _replies(post_ids: set[int]) -> Any:
    """Live direct replies per post: the `comments` count (a comment is a reply)."""
    return (
        select(posts.c.in_reply_to, func.count())
        .select_from(shown_replies)
        .where(posts.c.in_reply_to.in_(post_ids), posts.c.deleted_at.is_(None), account_live)
        .group_by(posts.c.in_reply_to)
    )
