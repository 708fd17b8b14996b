"""SqlPeople: find users by username (case ignored), by the words of their names
(adapters/sql/search.py), and by who follows whom.

Every list query here is an index range: the username by its lowercase form
(migration 0005), the words of names by the search index (migration 0022), follows by
(followee_id, created_at) and (follower_id, created_at), a post's likers by (post_id,
created_at, user_id) and its live reposts by (repost_of, id) (migration 0028). The
query expressions must be the indexed ones exactly, or the planner cannot use the indexes:
`tests/contract/test_sql_people.py` checks the plans.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import Select, Table, and_, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import utc
from feedloom.adapters.sql.schema import blocks, follows, likes, mutes, posts, users
from feedloom.adapters.sql.search import people_query
from feedloom.domain.people import FollowKey, RankKey, RelationFlags, RepostKey


class SqlPeople:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def user_id_by_username(self, username: str) -> int | None:
        # The unique index on lower(username) (default collation) serves this.
        query = select(users.c.id).where(func.lower(users.c.username) == username.lower())
        async with self._engine.connect() as conn:
            user_id: int | None = (await conn.execute(query)).scalar()
        return user_id

    async def search(
        self, words: Sequence[str], exclude: Collection[int], after: RankKey | None, limit: int
    ) -> list[RankKey]:
        query = people_query(self._engine.dialect.name, words, exclude, after, limit)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [RankKey(row.followers, row.id) for row in rows]

    async def followers_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        return await self._follow_page(
            follows.c.followee_id, follows.c.follower_id, user_id, before, limit
        )

    async def following_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        return await self._follow_page(
            follows.c.follower_id, follows.c.followee_id, user_id, before, limit
        )

    async def blocking_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        return await self._follow_page(
            blocks.c.blocker_id, blocks.c.blocked_id, user_id, before, limit, blocks
        )

    async def muting_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        return await self._follow_page(
            mutes.c.muter_id, mutes.c.muted_id, user_id, before, limit, mutes
        )

    def follow_page_query(
        self,
        mine: Any,
        other: Any,
        user_id: int,
        before: FollowKey | None,
        limit: int,
        table: Table = follows,
    ) -> Select[Any]:
        # Blocks and mutes page the same way as follows: one person's few rows, found by
        # the primary key's first column, newest first.
        created_at = table.c.created_at
        query = select(other.label("user_id"), created_at).where(mine == user_id)
        if before is not None:
            query = query.where(
                or_(
                    created_at < before.at,
                    and_(created_at == before.at, other < before.user_id),
                )
            )
        return query.order_by(created_at.desc(), other.desc()).limit(limit)

    async def _follow_page(
        self,
        mine: Any,
        other: Any,
        user_id: int,
        before: FollowKey | None,
        limit: int,
        table: Table = follows,
    ) -> list[FollowKey]:
        query = self.follow_page_query(mine, other, user_id, before, limit, table)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [FollowKey(utc(row.created_at) or row.created_at, row.user_id) for row in rows]

    async def likers_page(
        self, post_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        return await self._follow_page(
            likes.c.post_id, likes.c.user_id, post_id, before, limit, likes
        )

    def reposters_query(self, post_id: int, before: int | None, limit: int) -> Select[Any]:
        # The partial index of live reposts (migration 0028) holds exactly these rows.
        query = select(posts.c.id, posts.c.author_id).where(
            posts.c.repost_of == post_id, posts.c.deleted_at.is_(None)
        )
        if before is not None:
            query = query.where(posts.c.id < before)
        return query.order_by(posts.c.id.desc()).limit(limit)

    async def reposters_page(self, post_id: int, before: int | None, limit: int) -> list[RepostKey]:
        async with self._engine.connect() as conn:
            rows = (await conn.execute(self.reposters_query(post_id, before, limit))).all()
        return [RepostKey(row.id, row.author_id) for row in rows]

    async def followers_among(self, user_id: int, candidates: Sequence[int]) -> set[int]:
        if not candidates:
            return set()
        query = select(follows.c.follower_id).where(
            follows.c.followee_id == user_id, follows.c.follower_id.in_(set(candidates))
        )
        async with self._engine.connect() as conn:
            return set((await conn.execute(query)).scalars())

    async def relation(self, viewer_id: int, other_id: int) -> RelationFlags:
        """Every relation between two people in one query of five primary-key probes."""

        def edge(a: Any, b: Any, left: int, right: int) -> Any:
            return exists().where(a == left, b == right)

        f, b, m = follows.c, blocks.c, mutes.c
        query = select(
            edge(f.follower_id, f.followee_id, viewer_id, other_id).label("following"),
            edge(f.follower_id, f.followee_id, other_id, viewer_id).label("followed"),
            edge(b.blocker_id, b.blocked_id, viewer_id, other_id).label("blocking"),
            edge(b.blocker_id, b.blocked_id, other_id, viewer_id).label("blocked_by"),
            edge(m.muter_id, m.muted_id, viewer_id, other_id).label("muting"),
        )
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).one()
        return RelationFlags(
            following=bool(row.following),
            followed_by=bool(row.followed),
            blocking=bool(row.blocking),
            blocked_by=bool(row.blocked_by),
            muting=bool(row.muting),
        )
