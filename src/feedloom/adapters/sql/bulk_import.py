"""Bulk-load users and follows in one transaction (demo data, `feedloom import-graph`).

Idempotent: existing users and edges are skipped, so a re-import adds nothing twice.
Afterwards follower/following counts are recomputed from the edges, and the
pushed/pulled status of every account is re-decided by the caller's policy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.bulk_paths import (
    copy_follows,
    copy_users,
    sqlite_insert,
    sqlite_timestamp,
)
from feedloom.adapters.sql.database import insert_ignoring_duplicates
from feedloom.adapters.sql.posts import post_row
from feedloom.adapters.sql.schema import follows, users
from feedloom.adapters.sql.schema import likes as like_table
from feedloom.adapters.sql.schema import posts as post_table
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Comment, Post, Visibility
from feedloom.domain.threads import reply_path
from feedloom.ports import NewUser


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
            if self._dialect == "postgresql":
                await copy_users(conn, _user_rows(new_users, now), progress)
                await copy_follows(conn, _edge_rows(edges, now), progress)
            else:
                stamp = sqlite_timestamp(conn, now)
                user_rows, edge_rows = _user_rows(new_users, stamp), _edge_rows(edges, stamp)
                await sqlite_insert(conn, user_rows, edge_rows, progress)
            await recount_follows(conn, is_pulled)

    async def load_history(
        self,
        posts: Sequence[Post],
        likes: Sequence[tuple[int, int]],
        comments: Sequence[Comment],
        now: datetime,
    ) -> None:
        async with self._engine.begin() as conn:
            # Comments are replies: stored after their posts, as posts under them.
            for table, rows in (
                (post_table, [post_row(post) for post in posts]),
                (like_table, [{"post_id": p, "user_id": u, "created_at": now} for p, u in likes]),
            ):
                if rows:
                    await conn.execute(insert_ignoring_duplicates(self._dialect, table), rows)
            replies = await _reply_rows(conn, comments)
            if replies:
                await conn.execute(insert_ignoring_duplicates(self._dialect, post_table), replies)


async def _reply_rows(conn: AsyncConnection, comments: Sequence[Comment]) -> list[Any]:
    """Each comment as a reply post under its (stored) post, with its post's visibility;
    comments on posts not stored are dropped."""
    if not comments:
        return []
    query = select(
        post_table.c.id,
        post_table.c.author_id,
        post_table.c.visibility,
        post_table.c.thread_path,
    ).where(post_table.c.id.in_({comment.post_id for comment in comments}))
    parents = {row.id: row for row in await conn.execute(query)}
    rows = []
    for comment in comments:
        parent = parents.get(comment.post_id)
        path = parent and reply_path(parent.id, parent.thread_path, comment.id)
        if parent is None or path is None:
            continue
        reply = Post(
            comment.id,
            comment.author_id,
            comment.text,
            Visibility(parent.visibility),
            created_at_of(comment.id),
            in_reply_to=parent.id,
            reply_to_author=parent.author_id,
        )
        rows.append({**post_row(reply), "thread_path": path})
    return rows


def _user_rows(new_users: Sequence[NewUser], stamp: Any) -> list[tuple[Any, ...]]:
    return [
        (u.id, u.username, u.display_name, u.password_hash, u.avatar, stamp, stamp)
        for u in new_users
    ]


def _edge_rows(edges: Sequence[tuple[int, int]], stamp: Any) -> list[tuple[Any, ...]]:
    return [(follower, followee, stamp) for follower, followee in edges]


async def recount_follows(conn: AsyncConnection, is_pulled: Callable[[int], bool]) -> None:
    """Set every user's follow counts from the edges and re-decide pushed/pulled;
    only rows that change are written, so a repeated import writes nothing."""
    followers = await _counts_by(conn, follows.c.followee_id)
    following = await _counts_by(conn, follows.c.follower_id)
    query = select(users.c.id, users.c.followers, users.c.following, users.c.pulled)
    changes = []
    for row in await conn.execute(query):
        counted = (followers.get(row.id, 0), following.get(row.id, 0))
        pulled = is_pulled(counted[0])
        if (row.followers, row.following, bool(row.pulled)) != (*counted, pulled):
            changes.append(
                {"uid": row.id, "followers": counted[0], "following": counted[1], "pulled": pulled}
            )
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


async def _counts_by(conn: AsyncConnection, column: Any) -> dict[int, int]:
    rows = await conn.execute(select(column, func.count()).group_by(column))
    return {user_id: count for user_id, count in rows}
