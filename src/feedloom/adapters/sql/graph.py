"""SqlSocialGraph: follows, blocks and mutes, with denormalized follower counts.

Every relation write is idempotent (insert-if-absent, delete-if-present) and keeps
the users' follower/following counts in step inside the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, and_, delete, func, literal, or_, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import among, insert_ignoring_duplicates, utc
from feedloom.adapters.sql.outbox import record_notification
from feedloom.adapters.sql.schema import blocks, follows, mutes, users
from feedloom.domain.notifications import NotificationType, notify
from feedloom.ports import Followee, OwnRelations

FOLLOW = NotificationType.FOLLOW


class SqlSocialGraph:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def follow(
        self, follower_id: int, followee_id: int, now: datetime, reposts: bool = True
    ) -> bool:
        insert = insert_ignoring_duplicates(self._dialect, follows).values(
            follower_id=follower_id, followee_id=followee_id, created_at=now, reposts=reposts
        )
        async with self._engine.begin() as conn:
            created = (await conn.execute(insert)).rowcount == 1
            if created:
                await _adjust_counts(conn, follower_id, followee_id, +1)
                event = notify(FOLLOW, follower_id, followee_id, 0, now)
                await record_notification(conn, event, now)
        return created

    async def follow_reposts(self, follower_id: int, followee_id: int, reposts: bool) -> bool:
        query = (
            update(follows)
            .where(
                follows.c.follower_id == follower_id,
                follows.c.followee_id == followee_id,
                follows.c.reposts != reposts,
            )
            .values(reposts=reposts)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def unfollow(self, follower_id: int, followee_id: int) -> bool:
        async with self._engine.begin() as conn:
            followed_at = await _unfollow(conn, follower_id, followee_id)
            if followed_at is not None:
                event = notify(FOLLOW, follower_id, followee_id, 0, followed_at, undo=True)
                await record_notification(conn, event, followed_at)
        return followed_at is not None

    async def block(self, blocker_id: int, blocked_id: int, now: datetime) -> bool:
        insert = insert_ignoring_duplicates(self._dialect, blocks).values(
            blocker_id=blocker_id, blocked_id=blocked_id, created_at=now
        )
        async with self._engine.begin() as conn:
            created = (await conn.execute(insert)).rowcount == 1
            await _unfollow(conn, blocker_id, blocked_id)
            await _unfollow(conn, blocked_id, blocker_id)
        return created

    async def unblock(self, blocker_id: int, blocked_id: int) -> bool:
        query = delete(blocks).where(
            blocks.c.blocker_id == blocker_id, blocks.c.blocked_id == blocked_id
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def mute(
        self, muter_id: int, muted_id: int, now: datetime, notifications: bool = True
    ) -> bool:
        """Mute (or change whether the mute silences notifications too)."""
        insert = insert_ignoring_duplicates(self._dialect, mutes).values(
            muter_id=muter_id, muted_id=muted_id, created_at=now, notifications=notifications
        )
        change = (
            update(mutes)
            .where(
                mutes.c.muter_id == muter_id,
                mutes.c.muted_id == muted_id,
                mutes.c.notifications != notifications,
            )
            .values(notifications=notifications)
        )
        async with self._engine.begin() as conn:
            if (await conn.execute(insert)).rowcount == 1:
                return True
            return (await conn.execute(change)).rowcount == 1

    async def unmute(self, muter_id: int, muted_id: int) -> bool:
        query = delete(mutes).where(mutes.c.muter_id == muter_id, mutes.c.muted_id == muted_id)
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def is_blocked_either_way(self, a: int, b: int) -> bool:
        query = select(blocks.c.blocker_id).where(
            or_(
                and_(blocks.c.blocker_id == a, blocks.c.blocked_id == b),
                and_(blocks.c.blocker_id == b, blocks.c.blocked_id == a),
            )
        )
        async with self._engine.connect() as conn:
            return (await conn.execute(query.limit(1))).first() is not None

    async def followees(self, user_id: int) -> list[Followee]:
        async with self._engine.connect() as conn:
            return await _followees(conn, user_id)

    async def blocked_either_way(self, user_id: int) -> set[int]:
        async with self._engine.connect() as conn:
            return await _blocked_either_way(conn, user_id)

    async def muted(self, user_id: int) -> set[int]:
        async with self._engine.connect() as conn:
            return await _muted(conn, user_id)

    async def own_relations(self, user_id: int) -> OwnRelations:
        # One pooled connection for the three: a checkout with its BEGIN and ROLLBACK
        # costs more than a small indexed query (docs/BENCHMARKS.md, one hot post).
        async with self._engine.connect() as conn:
            return OwnRelations(
                followees=await _followees(conn, user_id),
                blocked=await _blocked_either_way(conn, user_id),
                muted=await _muted(conn, user_id),
            )

    async def is_following(self, follower_id: int, followee_id: int) -> bool:
        query = select(follows.c.follower_id).where(
            follows.c.follower_id == follower_id, follows.c.followee_id == followee_id
        )
        async with self._engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def follower_batch(self, followee_id: int, after: int, limit: int) -> list[int]:
        # Keyset over the (followee_id, follower_id) index: each batch is one range scan.
        query = (
            select(follows.c.follower_id)
            .where(follows.c.followee_id == followee_id, follows.c.follower_id > after)
            .order_by(follows.c.follower_id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())

    async def follower_lists(self, followee_ids: Sequence[int]) -> dict[int, list[int]]:
        # One statement for a whole fan-out batch, aggregated inside the database: one
        # row per author, not per follower (rows cost Python far more than integers).
        column = follows.c.follower_id
        postgres = self._engine.dialect.name == "postgresql"
        aggregate: Any = func.array_agg(column) if postgres else func.group_concat(column)
        query = (
            select(follows.c.followee_id, aggregate)
            .where(among(self._dialect, follows.c.followee_id, sorted(set(followee_ids))))
            .group_by(follows.c.followee_id)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {followee: _ids(followers) for followee, followers in rows}

    async def followers_also_following(
        self, pairs: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], set[int]]:
        # One self-join for the batch's replies: the author's followers (a range of the
        # followee index), each probed on the primary key for the other account.
        if not pairs:
            return {}
        theirs = follows.alias("theirs")
        found: dict[tuple[int, int], set[int]] = {}
        wanted = sorted(set(pairs))
        if self._dialect == "postgresql":
            # The pairs as a relation driving the join: PostgreSQL plans an OR of pairs
            # as one hash join over the whole follows table (28+ minutes a batch on the
            # peers' 20,000 users), where each pair's index range is a few rows.
            authors, others = (literal([p[i] for p in wanted], ARRAY(BigInteger)) for i in (0, 1))
            batch = func.unnest(authors, others).table_valued("author", "other").render_derived()
            query = (
                select(batch.c.author, batch.c.other, follows.c.follower_id)
                .join(follows, follows.c.followee_id == batch.c.author)
                .join(
                    theirs,
                    and_(
                        theirs.c.follower_id == follows.c.follower_id,
                        theirs.c.followee_id == batch.c.other,
                    ),
                )
            )
        else:
            condition = or_(
                *(and_(follows.c.followee_id == a, theirs.c.followee_id == b) for a, b in wanted)
            )
            query = (
                select(follows.c.followee_id, theirs.c.followee_id, follows.c.follower_id)
                .join(theirs, theirs.c.follower_id == follows.c.follower_id)
                .where(condition)
            )
        async with self._engine.connect() as conn:
            for author, other, follower in await conn.execute(query):
                found.setdefault((author, other), set()).add(follower)
        return found


def _ids(aggregated: list[int] | str) -> list[int]:
    if isinstance(aggregated, str):  # SQLite's group_concat: "1,2,3"
        return list(map(int, aggregated.split(",")))
    return aggregated


async def _unfollow(conn: AsyncConnection, follower_id: int, followee_id: int) -> datetime | None:
    """Drop the follow; when it was made (None: there was none)."""
    query = (
        delete(follows)
        .where(follows.c.follower_id == follower_id, follows.c.followee_id == followee_id)
        .returning(follows.c.created_at)
    )
    followed_at = utc((await conn.execute(query)).scalar())
    if followed_at is not None:
        await _adjust_counts(conn, follower_id, followee_id, -1)
    return followed_at


async def _adjust_counts(
    conn: AsyncConnection, follower_id: int, followee_id: int, delta: int
) -> None:
    changes = {
        follower_id: {"following": users.c.following + delta},
        followee_id: {"followers": users.c.followers + delta},
    }
    # Lock the two user rows in id order: `a follows b` and `b follows a` committing at
    # once would otherwise each hold one row and wait for the other (a deadlock on
    # PostgreSQL). The user ids differ: nobody follows themselves.
    for user_id in sorted(changes):
        await conn.execute(update(users).where(users.c.id == user_id).values(changes[user_id]))


async def _followees(conn: AsyncConnection, user_id: int) -> list[Followee]:
    query = (
        select(follows.c.followee_id, users.c.pulled, follows.c.reposts)
        .join(users, users.c.id == follows.c.followee_id)
        .where(follows.c.follower_id == user_id)
    )
    rows = (await conn.execute(query)).all()
    return [Followee(row.followee_id, bool(row.pulled), bool(row.reposts)) for row in rows]


async def _blocked_either_way(conn: AsyncConnection, user_id: int) -> set[int]:
    by_me = select(blocks.c.blocked_id).where(blocks.c.blocker_id == user_id)
    of_me = select(blocks.c.blocker_id).where(blocks.c.blocked_id == user_id)
    return set((await conn.execute(by_me.union(of_me))).scalars())


async def _muted(conn: AsyncConnection, user_id: int) -> set[int]:
    query = select(mutes.c.muted_id).where(mutes.c.muter_id == user_id)
    return set((await conn.execute(query)).scalars())
