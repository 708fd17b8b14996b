"""SqlAccountEraser: an account erased in one transaction (DELETE /v1/me,
`feedloom accounts delete`).

Kept: the `users` row as a tombstone (its ID, its username until the reservation ends,
`deleted_at`; name, bio, avatar and password blanked), so IDs still cached in other
readers' timelines resolve to "deleted" and are filtered; and the `posts` rows as
tombstones (ID, author, `deleted_at`; text and media emptied), as for any deleted
post. Everything else of the account is deleted, and the counts it was part of move
with it: the followers/following columns here, likes and comments by recount (the
caller refreshes the cached counts of `touched_post_ids`). Others' replies to the
account's posts stay: they are others' posts (their parent is a tombstone now).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import case, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.app_tables import app_users
from feedloom.adapters.sql.facets import drop_author_facets
from feedloom.adapters.sql.outbox import record_event
from feedloom.adapters.sql.schema import (
    affinities,
    blocks,
    follows,
    idempotency_keys,
    known_clients,
    likes,
    media,
    mutes,
    posts,
    suggestion_dismissals,
    tokens,
    users,
)
from feedloom.domain.model import AccountErased, object_name
from feedloom.ports import Erasure

UNUSABLE_PASSWORD = "!erased"  # not an argon2 hash: verifying it always fails


class SqlAccountEraser:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def media_files(self, user_id: int) -> list[str]:
        query = select(media.c.url, media.c.sizes).where(media.c.owner_id == user_id)
        async with self._engine.connect() as conn:
            return _names((await conn.execute(query)).all())

    async def erase_account(self, user_id: int, now: datetime) -> Erasure:
        async with self._engine.begin() as conn:
            related = await _drop_relations(conn, user_id)
            touched = await _drop_engagement(conn, user_id)
            own_posts = await _tombstone_posts(conn, user_id, now)
            files = await _drop_media(conn, user_id)
            for table, column in (
                (idempotency_keys, "user_id"),
                (affinities, "reader_id"),
                (known_clients, "user_id"),
            ):
                await conn.execute(delete(table).where(table.c[column] == user_id))
            await conn.execute(delete(affinities).where(affinities.c.author_id == user_id))
            revoked = await conn.execute(
                delete(tokens).where(tokens.c.user_id == user_id).returning(tokens.c.token_hash)
            )
            digests = list(revoked.scalars())
            unlinked = await conn.execute(
                delete(app_users)
                .where(app_users.c.user_id == user_id)
                .returning(app_users.c.app_id, app_users.c.external_id)
            )
            links = [(row.app_id, row.external_id) for row in unlinked]
            for app_id, external_id in links:  # its app's webhooks hear of it (user.deleted)
                await record_event(conn, AccountErased(user_id, app_id, external_id), now)
            await conn.execute(_blank_profile(user_id, now))
        touched_others = sorted(touched - set(own_posts))
        return Erasure(own_posts, touched_others, related, digests, files, links)


async def _ids(conn: AsyncConnection, query: Any) -> list[int]:
    return list((await conn.execute(query)).scalars())


async def _drop_relations(conn: AsyncConnection, user_id: int) -> list[int]:
    """Follows both ways (moving the other side's count), blocks and mutes both ways."""
    followees = await _ids(
        conn, select(follows.c.followee_id).where(follows.c.follower_id == user_id)
    )
    followers = await _ids(
        conn, select(follows.c.follower_id).where(follows.c.followee_id == user_id)
    )
    await conn.execute(
        delete(follows).where(
            or_(follows.c.follower_id == user_id, follows.c.followee_id == user_id)
        )
    )
    await _count(conn, followees, followers=-1)
    await _count(conn, followers, following=-1)
    others = {*followees, *followers}
    for table, one, other in (
        (blocks, "blocker_id", "blocked_id"),
        (mutes, "muter_id", "muted_id"),
    ):
        for mine, theirs in ((one, other), (other, one)):
            gone = delete(table).where(table.c[mine] == user_id).returning(table.c[theirs])
            others.update((await conn.execute(gone)).scalars())
    # Their dismissed suggestions go too; dismissals of them stay harmless, since a
    # deleted account is never suggested.
    await conn.execute(
        delete(suggestion_dismissals).where(suggestion_dismissals.c.user_id == user_id)
    )
    others.discard(user_id)
    return sorted(others)


async def _count(conn: AsyncConnection, user_ids: Sequence[int], **delta: int) -> None:
    if not user_ids:
        return
    values = {name: users.c[name] + change for name, change in delta.items()}
    await conn.execute(update(users).where(users.c.id.in_(user_ids)).values(values))


async def _drop_engagement(conn: AsyncConnection, user_id: int) -> set[int]:
    """The account's likes; the posts whose counts they and its replies (tombstoned with
    its other posts) were part of."""
    liked = delete(likes).where(likes.c.user_id == user_id).returning(likes.c.post_id)
    touched = set((await conn.execute(liked)).scalars())
    replied = select(posts.c.in_reply_to).where(
        posts.c.author_id == user_id,
        posts.c.in_reply_to.is_not(None),
        posts.c.deleted_at.is_(None),
    )
    touched.update(await _ids(conn, replied))
    return touched


async def _tombstone_posts(conn: AsyncConnection, user_id: int, now: datetime) -> list[int]:
    own = await _ids(conn, select(posts.c.id).where(posts.c.author_id == user_id))
    if own:
        await conn.execute(delete(likes).where(likes.c.post_id.in_(own)))
        await conn.execute(
            update(posts)
            .where(posts.c.author_id == user_id)
            .values(text="", media=[], facets=None, deleted_at=now)
        )
        await drop_author_facets(conn, user_id)
    return own


async def _drop_media(conn: AsyncConnection, user_id: int) -> list[str]:
    gone = delete(media).where(media.c.owner_id == user_id).returning(media.c.url, media.c.sizes)
    return _names((await conn.execute(gone)).all())


def _names(rows: Sequence[Any]) -> list[str]:
    return [
        object_name(each)
        for url, sizes in rows
        for each in [url, *(size["url"] for size in sizes or ())]
    ]


def _blank_profile(user_id: int, now: datetime) -> Any:
    live = users.c.deleted_at.is_(None)
    return (
        update(users)
        .where(users.c.id == user_id)
        .values(
            display_name="",
            bio="",
            avatar=None,
            password_hash=UNUSABLE_PASSWORD,
            role=None,
            followers=0,
            following=0,
            deleted_at=_keep_first(live, now),
        )
    )


def _keep_first(live: Any, now: datetime) -> Any:
    """An account deleted before (hidden only, by an older `accounts delete`) keeps its
    first deletion time: the username reservation counts from there."""
    return case((live, now), else_=users.c.deleted_at)
