"""Mentions and tags of a post, recorded in the post's own transaction.

`record_facets` is the one write-time step for both a new post (SqlPosts.create_post)
and an edit: it makes the post's mention and tag rows what its facets say (adding
and removing, counts of tags kept), so calling it again with the same facets changes
nothing. `drop_tags` takes a deleted post off its tags, `drop_author_facets` an erased
account's posts off their tags and mentions.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from feedloom.adapters.sql.database import insert_ignoring_duplicates
from feedloom.adapters.sql.schema import account_live, blocks, post_mentions, post_tags, tags, users
from feedloom.domain.model import Post, Visibility


async def record_facets(conn: AsyncConnection, post: Post, now: datetime) -> list[int]:
    """The post's mention and tag rows made to match `post.facets` (its ID, author and
    visibility as stored); the users mentioned now and not before (whom to notify)."""
    dialect = conn.dialect.name
    mentioned = [user_id for user_id, _ in post.mentions]
    before = set(
        (
            await conn.execute(
                select(post_mentions.c.user_id).where(post_mentions.c.post_id == post.id)
            )
        ).scalars()
    )
    gone = before - set(mentioned)
    if gone:
        await conn.execute(
            delete(post_mentions).where(
                post_mentions.c.post_id == post.id, post_mentions.c.user_id.in_(gone)
            )
        )
    added = [user_id for user_id in mentioned if user_id not in before]
    if added:
        rows = [
            {"post_id": post.id, "user_id": user_id, "author_id": post.author_id, "created_at": now}
            for user_id in added
        ]
        await conn.execute(insert_ignoring_duplicates(dialect, post_mentions), rows)
    await _record_tags(conn, post)
    return added


async def drop_tags(conn: AsyncConnection, post_id: int) -> None:
    """A deleted post leaves its tags' pages and counts (in its tombstone's transaction)."""
    await _set_tags(conn, post_id, 0, False, {})


async def drop_author_facets(conn: AsyncConnection, author_id: int) -> None:
    """An erased account's posts leave their tags (and the counts) and their mentions."""
    t = post_tags.c
    counted = select(t.tag_id, func.count().label("n")).where(
        t.author_id == author_id, t.public.is_(True)
    )
    for row in (await conn.execute(counted.group_by(t.tag_id))).all():
        await _count(conn, [row.tag_id], -row.n)
    await conn.execute(delete(post_tags).where(t.author_id == author_id))
    await conn.execute(delete(post_mentions).where(post_mentions.c.author_id == author_id))


async def tag_ids(conn: AsyncConnection, names: Sequence[str], create: bool) -> dict[str, int]:
    """Name -> ID of these tags; with `create`, those missing are made first."""
    if not names:
        return {}
    if create:
        await conn.execute(
            insert_ignoring_duplicates(conn.dialect.name, tags), [{"name": n} for n in names]
        )
    rows = await conn.execute(select(tags.c.name, tags.c.id).where(tags.c.name.in_(names)))
    return {row.name: row.id for row in rows}


async def resolve_usernames(
    conn: AsyncConnection, author_id: int, names: Sequence[str]
) -> dict[str, tuple[int, str]]:
    """Lowercased name -> (ID, username) of live accounts with these names that do not
    block the author (a mention of them is dropped without a word)."""
    if not names:
        return {}
    blocking = select(blocks.c.blocker_id).where(blocks.c.blocked_id == author_id)
    query = select(users.c.id, users.c.username).where(
        func.lower(users.c.username).in_(list(names)),
        account_live,
        users.c.id.not_in(blocking),
    )
    rows = await conn.execute(query)
    return {row.username.lower(): (row.id, row.username) for row in rows}


async def _record_tags(conn: AsyncConnection, post: Post) -> None:
    ids = await tag_ids(conn, post.tags, create=True)
    public = post.visibility is Visibility.PUBLIC
    await _set_tags(conn, post.id, post.author_id, public, ids)


async def _set_tags(
    conn: AsyncConnection, post_id: int, author_id: int, public: bool, wanted: dict[str, int]
) -> None:
    """The post's rows in `post_tags` become `wanted` (name -> tag ID); a public
    post's tags count it."""
    rows = await conn.execute(
        select(post_tags.c.tag_id, post_tags.c.public).where(post_tags.c.post_id == post_id)
    )
    had = {row.tag_id: row.public for row in rows}
    gone = [tag_id for tag_id in had if tag_id not in wanted.values()]
    new = [tag_id for tag_id in wanted.values() if tag_id not in had]
    if gone:
        await conn.execute(
            delete(post_tags).where(post_tags.c.post_id == post_id, post_tags.c.tag_id.in_(gone))
        )
        await _count(conn, [tag_id for tag_id in gone if had[tag_id]], -1)
    if new:
        await conn.execute(
            post_tags.insert(),
            [
                {"tag_id": tag_id, "post_id": post_id, "author_id": author_id, "public": public}
                for tag_id in new
            ],
        )
        if public:
            await _count(conn, new, 1)


async def _count(conn: AsyncConnection, ids: list[int], step: int) -> None:
    if ids:
        count = tags.c.posts_count
        await conn.execute(
            update(tags)
            .where(tags.c.id.in_(ids))
            .values(posts_count=case((count + step > 0, count + step), else_=0))
        )
