"""Bulk-load users and follows in one transaction (demo data, `feedloom import-graph`).

Idempotent: existing users and edges are skipped, so a re-import adds nothing twice.
Afterwards follower/following counts are recomputed from the edges, and the
pushed/pulled status of every account is re-decided by the caller's policy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import insert_ignoring_duplicates
from feedloom.adapters.sql.schema import follows, users
from feedloom.ports import NewUser

CHUNK = 5_000


class SqlBulkImport:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def load(
        self,
        new_users: Sequence[NewUser],
        edges: Sequence[tuple[int, int]],
        now: datetime,
        is_pulled: Callable[[int], bool],
        progress: Callable[[int], None] = lambda _n: None,
    ) -> None:
        async with self._engine.begin() as conn:
            user_rows = [
                {
                    "id": u.id,
                    "username": u.username,
                    "display_name": u.display_name,
                    "password_hash": u.password_hash,
                    "avatar": u.avatar,
                    "created_at": now,
                    "last_active_at": now,
                }
                for u in new_users
            ]
            for start in range(0, len(user_rows), CHUNK):
                await conn.execute(
                    insert_ignoring_duplicates(self._dialect, users),
                    user_rows[start : start + CHUNK],
                )
                progress(len(user_rows[start : start + CHUNK]))
            edge_rows = [{"follower_id": a, "followee_id": b, "created_at": now} for a, b in edges]
            for start in range(0, len(edge_rows), CHUNK):
                await conn.execute(
                    insert_ignoring_duplicates(self._dialect, follows),
                    edge_rows[start : start + CHUNK],
                )
                progress(len(edge_rows[start : start + CHUNK]))
            await recount_follows(conn, is_pulled)


async def recount_follows(conn: AsyncConnection, is_pulled: Callable[[int], bool]) -> None:
    followers: dict[int, int] = dict(
        (
            await conn.execute(
                select(follows.c.followee_id, func.count()).group_by(follows.c.followee_id)
            )
        )
        .tuples()
        .all()
    )
    following: dict[int, int] = dict(
        (
            await conn.execute(
                select(follows.c.follower_id, func.count()).group_by(follows.c.follower_id)
            )
        )
        .tuples()
        .all()
    )
    rows = (await conn.execute(select(users.c.id, users.c.followers, users.c.following))).all()
    changes = [
        {
            "uid": row.id,
            "followers": followers.get(row.id, 0),
            "following": following.get(row.id, 0),
            "pulled": is_pulled(followers.get(row.id, 0)),
        }
        for row in rows
    ]
    if changes:
        statement = (
            update(users)
            .where(users.c.id == bindparam("uid"))
            .values(
                followers=bindparam("followers"),
                following=bindparam("following"),
                pulled=bindparam("pulled"),
            )
        )
        await conn.execute(statement, changes)
