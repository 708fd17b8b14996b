"""SqlFeeds: lists and their members, saved feeds, generators, muted words
(ports/feeds.py). Each read is by key: a list by ID, members by (list_id, member_id),
an owner's lists and feeds by (owner_id, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, Table, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import insert_ignoring_duplicates, utc
from feedloom.adapters.sql.schema import (
    feed_generators,
    list_members,
    lists,
    muted_words,
    saved_feeds,
)
from feedloom.domain.custom_feeds import FeedGenerator, FeedList, Keyed, SavedFeed
from feedloom.domain.errors import Conflict, IdempotencyMismatch
from feedloom.domain.feed_definitions import ReplyPolicy, definition_json, definition_of

MISMATCH = "this Idempotency-Key was already used with a different request"


class SqlFeeds:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    # -- lists ------------------------------------------------------------------------

    async def create_list(
        self, feed_list: FeedList, keyed: Keyed, max_lists: int
    ) -> tuple[FeedList, bool] | None:
        async with self._engine.begin() as conn:
            first = await self._keyed_row(conn, lists, feed_list.owner_id, keyed)
            if first is not None:
                stored = await self._list(conn, first.id)
                assert stored is not None
                return stored, False
            if await self._count(conn, lists, feed_list.owner_id) >= max_lists:
                return None
            await conn.execute(
                insert(lists).values(
                    id=feed_list.id,
                    owner_id=feed_list.owner_id,
                    title=feed_list.title,
                    replies=feed_list.replies.value,
                    exclusive=feed_list.exclusive,
                    created_at=feed_list.created_at,
                    idempotency_key=keyed.key,
                    request_hash=keyed.request_hash,
                )
            )
        return feed_list, True

    async def lists_of(self, owner_id: int) -> list[FeedList]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                self._lists_query().where(lists.c.owner_id == owner_id).order_by(lists.c.id)
            )
            return [_feed_list(row) for row in rows]

    async def list_by_id(self, list_id: int) -> FeedList | None:
        async with self._engine.connect() as conn:
            return await self._list(conn, list_id)

    async def update_list(self, feed_list: FeedList) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(lists)
                .where(lists.c.id == feed_list.id)
                .values(
                    title=feed_list.title,
                    replies=feed_list.replies.value,
                    exclusive=feed_list.exclusive,
                )
            )

    async def delete_list(self, list_id: int) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(list_members).where(list_members.c.list_id == list_id))
            await conn.execute(delete(lists).where(lists.c.id == list_id))

    async def add_member(
        self, list_id: int, member_id: int, now: datetime, max_members: int
    ) -> bool | None:
        m = list_members.c
        async with self._engine.begin() as conn:
            there = await conn.scalar(
                select(m.list_id).where(m.list_id == list_id, m.member_id == member_id)
            )
            if there is not None:
                return False
            count = await conn.scalar(select(func.count()).where(m.list_id == list_id))
            if (count or 0) >= max_members:
                return None
            added = await conn.execute(
                insert_ignoring_duplicates(self._dialect, list_members).values(
                    list_id=list_id, member_id=member_id, created_at=now
                )
            )
            return added.rowcount > 0

    async def remove_member(self, list_id: int, member_id: int) -> bool:
        m = list_members.c
        async with self._engine.begin() as conn:
            gone = await conn.execute(
                delete(list_members).where(m.list_id == list_id, m.member_id == member_id)
            )
            return gone.rowcount > 0

    async def members(self, list_id: int, limit: int) -> list[int]:
        m = list_members.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(m.member_id)
                .where(m.list_id == list_id)
                .order_by(m.created_at.desc(), m.member_id.desc())
                .limit(limit)
            )
            return [int(row.member_id) for row in rows]

    async def exclusive_members(self, owner_id: int) -> list[int]:
        m = list_members.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(m.member_id)
                .distinct()
                .join(lists, lists.c.id == m.list_id)
                .where(lists.c.owner_id == owner_id, lists.c.exclusive)
            )
            return [int(row.member_id) for row in rows]

    def _lists_query(self) -> Any:
        count = (
            select(func.count())
            .where(list_members.c.list_id == lists.c.id)
            .scalar_subquery()
            .label("members")
        )
        return select(lists, count)

    async def _list(self, conn: AsyncConnection, list_id: int) -> FeedList | None:
        row = (await conn.execute(self._lists_query().where(lists.c.id == list_id))).first()
        return _feed_list(row) if row is not None else None

    # -- saved feeds --------------------------------------------------------------------

    async def create_feed(
        self, feed: SavedFeed, keyed: Keyed, max_feeds: int
    ) -> tuple[SavedFeed, bool] | None:
        async with self._engine.begin() as conn:
            first = await self._keyed_row(conn, saved_feeds, feed.owner_id, keyed)
            if first is not None:
                stored = await self._feed(conn, first.id)
                assert stored is not None
                return stored, False
            count = await self._count(conn, saved_feeds, feed.owner_id)
            if count >= max_feeds:
                return None
            await conn.execute(
                insert(saved_feeds).values(
                    id=feed.id,
                    owner_id=feed.owner_id,
                    name=feed.name,
                    definition=definition_json(feed.definition),
                    pinned=feed.pinned,
                    position=count,
                    created_at=feed.created_at,
                    idempotency_key=keyed.key,
                    request_hash=keyed.request_hash,
                )
            )
        return SavedFeed(
            feed.id, feed.owner_id, feed.name, feed.definition, feed.created_at, feed.pinned, count
        ), True

    async def feed_by_id(self, feed_id: int) -> SavedFeed | None:
        async with self._engine.connect() as conn:
            return await self._feed(conn, feed_id)

    async def feeds_of(self, owner_id: int) -> list[SavedFeed]:
        f = saved_feeds.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(saved_feeds).where(f.owner_id == owner_id).order_by(f.position, f.id)
            )
            return [_saved_feed(row) for row in rows]

    async def delete_feed(self, feed_id: int) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(saved_feeds).where(saved_feeds.c.id == feed_id))

    async def arrange_feeds(self, owner_id: int, order: Sequence[tuple[int, bool]]) -> None:
        f = saved_feeds.c
        async with self._engine.begin() as conn:
            for position, (feed_id, pinned) in enumerate(order):
                await conn.execute(
                    update(saved_feeds)
                    .where(f.id == feed_id, f.owner_id == owner_id)
                    .values(position=position, pinned=pinned)
                )

    async def _feed(self, conn: AsyncConnection, feed_id: int) -> SavedFeed | None:
        row = (await conn.execute(select(saved_feeds).where(saved_feeds.c.id == feed_id))).first()
        return _saved_feed(row) if row is not None else None

    # -- generators ---------------------------------------------------------------------

    async def create_generator(
        self, generator: FeedGenerator, keyed: Keyed
    ) -> tuple[FeedGenerator, bool]:
        g = feed_generators.c
        async with self._engine.begin() as conn:
            first = await self._keyed_row(conn, feed_generators, generator.owner_id, keyed)
            if first is not None:
                return _generator(first), False
            taken = await conn.scalar(select(g.id).where(g.uri == generator.uri))
            if taken is not None:
                raise Conflict(f"a generator with this URI is registered already (id {taken})")
            await conn.execute(
                insert(feed_generators).values(
                    id=generator.id,
                    owner_id=generator.owner_id,
                    uri=generator.uri,
                    name=generator.name,
                    description=generator.description,
                    secret=generator.secret,
                    feedback=generator.feedback,
                    created_at=generator.created_at,
                    idempotency_key=keyed.key,
                    request_hash=keyed.request_hash,
                )
            )
        return generator, True

    async def generator_by_id(self, generator_id: int) -> FeedGenerator | None:
        return await self._generator(feed_generators.c.id == generator_id)

    async def generator_by_uri(self, uri: str) -> FeedGenerator | None:
        return await self._generator(feed_generators.c.uri == uri)

    async def _generator(self, where: Any) -> FeedGenerator | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(feed_generators).where(where))).first()
            return _generator(row) if row is not None else None

    # -- muted words --------------------------------------------------------------------

    async def muted_words(self, user_id: int) -> list[str]:
        w = muted_words.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(w.word).where(w.user_id == user_id).order_by(w.created_at, w.word)
            )
            return [str(row.word) for row in rows]

    async def set_muted_words(self, user_id: int, words: Sequence[str], now: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(muted_words).where(muted_words.c.user_id == user_id))
            if words:
                await conn.execute(
                    insert(muted_words),
                    [{"user_id": user_id, "word": word, "created_at": now} for word in words],
                )

    # -- shared -------------------------------------------------------------------------

    async def _count(self, conn: AsyncConnection, table: Table, owner_id: int) -> int:
        return int(await conn.scalar(select(func.count()).where(table.c.owner_id == owner_id)) or 0)

    async def _keyed_row(
        self, conn: AsyncConnection, table: Table, owner_id: int, keyed: Keyed
    ) -> Row[Any] | None:
        """The row an earlier request with this key created; refused if it was another."""
        if keyed.key is None:
            return None
        c = table.c
        row = (
            await conn.execute(
                select(table).where(c.owner_id == owner_id, c.idempotency_key == keyed.key)
            )
        ).first()
        if row is not None and row.request_hash != keyed.request_hash:
            raise IdempotencyMismatch(MISMATCH)
        return row


def _feed_list(row: Row[Any]) -> FeedList:
    return FeedList(
        id=int(row.id),
        owner_id=int(row.owner_id),
        title=row.title,
        replies=ReplyPolicy(row.replies),
        exclusive=bool(row.exclusive),
        created_at=utc(row.created_at) or row.created_at,
        members=int(row.members),
    )


def _saved_feed(row: Row[Any]) -> SavedFeed:
    return SavedFeed(
        id=int(row.id),
        owner_id=int(row.owner_id),
        name=row.name,
        definition=definition_of(row.definition),
        created_at=utc(row.created_at) or row.created_at,
        pinned=bool(row.pinned),
        position=int(row.position),
    )


def _generator(row: Row[Any]) -> FeedGenerator:
    return FeedGenerator(
        id=int(row.id),
        owner_id=int(row.owner_id),
        uri=row.uri,
        name=row.name,
        description=row.description,
        secret=row.secret,
        feedback=bool(row.feedback),
        created_at=utc(row.created_at) or row.created_at,
    )
