"""SqlPosts: posts, their outbox events and idempotency records, and media."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import among, utc
from feedloom.adapters.sql.facets import drop_tags, record_facets
from feedloom.adapters.sql.idempotency import claim_key, stored_response
from feedloom.adapters.sql.outbox import record_event, record_notification
from feedloom.adapters.sql.schema import (
    account_hidden,
    idempotency_keys,
    media,
    posts,
    users,
)
from feedloom.domain.errors import Conflict, NotFound
from feedloom.domain.facets import facets_from_json, facets_json
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import (
    Media,
    MediaSize,
    Post,
    PostDeleted,
    PostPublished,
    Visibility,
)
from feedloom.domain.notifications import NotificationType, notify
from feedloom.domain.reposts import check_shareable
from feedloom.domain.threads import MAX_DEPTH, reply_path
from feedloom.ports import StoredResponse

MODERATION = NotificationType.MODERATION


class SqlPosts:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def create_post(
        self,
        post: Post,
        idempotency_key: str | None,
        request_hash: str,
        now: datetime,
        kind: Literal["post", "comment"] = "post",
    ) -> StoredResponse:
        try:
            async with self._engine.begin() as conn:
                # The idempotency row goes first: a concurrent retry with the same key
                # then fails here, before anything else was written.
                if idempotency_key is not None:
                    await claim_key(
                        conn, post.author_id, idempotency_key, request_hash, post.id, kind, now
                    )
                row = await _attached(conn, post)
                replied_to = None
                if post.in_reply_to is not None:
                    row.update(await _under_parent(conn, post.in_reply_to, post.id))
                    replied_to = row["reply_to_author_id"]
                    event = notify(NotificationType.REPLY, post.author_id, replied_to, post.id, now)
                    await record_notification(conn, event, now)
                if post.quote_of is not None:
                    quoted = await _count_quote(conn, post)
                    event = notify(NotificationType.QUOTE, post.author_id, quoted, post.id, now)
                    await record_notification(conn, event, now)
                await conn.execute(posts.insert().values(row))
                mentioned = await record_facets(conn, post, now)
                await notify_mentioned(conn, post, mentioned, now, replied_to)
                await record_event(conn, PostPublished(post.id, post.author_id), now)
        except IntegrityError:
            if idempotency_key is None:
                raise
            stored = await self.stored_response(post.author_id, idempotency_key)
            if stored is None:
                raise
            return stored
        return StoredResponse(request_hash, post.id, kind)

    async def stored_response(self, user_id: int, idempotency_key: str) -> StoredResponse | None:
        return await stored_response(self._engine, user_id, idempotency_key)

    async def posts(self, post_ids: Sequence[int]) -> dict[int, Post]:
        if not post_ids:
            return {}
        # The author's suspension travels with the shared view (domain/visibility.py).
        query = (
            select(posts, account_hidden.label("author_suspended"))
            .select_from(posts.outerjoin(users, users.c.id == posts.c.author_id))
            .where(among(self._dialect, posts.c.id, set(post_ids)))
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {row.id: _post_from_row(row._mapping) for row in rows}

    async def live_posts(self, post_ids: Sequence[int]) -> dict[int, int | None]:
        if not post_ids:
            return {}
        query = select(posts.c.id, posts.c.reply_to_author_id).where(
            among(self._dialect, posts.c.id, set(post_ids)), posts.c.deleted_at.is_(None)
        )
        async with self._engine.connect() as conn:
            return {row.id: row.reply_to_author_id for row in await conn.execute(query)}

    async def tombstone(self, post_id: int, now: datetime, rejected: bool = False) -> bool:
        async with self._engine.begin() as conn:
            row = (
                await conn.execute(
                    update(posts)
                    .where(posts.c.id == post_id, posts.c.deleted_at.is_(None))
                    .values(deleted_at=now)
                    .returning(posts.c.author_id, posts.c.repost_of, posts.c.quote_of)
                )
            ).first()
            if row is None:
                return False
            author_id = row.author_id
            if row.repost_of is not None:
                await unrepost_counted(conn, post_id, author_id, row.repost_of)
            if row.quote_of is not None:
                await uncount(conn, "quotes", row.quote_of)
            await drop_tags(conn, post_id)
            await record_event(conn, PostDeleted(post_id, author_id), now)
            if rejected:
                event = notify(MODERATION, 0, author_id, post_id, now, outcome="rejected")
                await record_notification(conn, event, now)
        return True

    async def author_post_ids(
        self, author_ids: Sequence[int], before: int | None, limit_per_author: int
    ) -> dict[int, list[int]]:
        if not author_ids:
            return {}
        result: dict[int, list[int]] = {author_id: [] for author_id in author_ids}
        async with self._engine.connect() as conn:
            # One indexed range scan per author on (author_id, id): cheaper and more
            # predictable than a window function over all of their posts.
            for author_id in result:
                query = _live_posts_of([author_id], before, None).limit(limit_per_author)
                result[author_id] = list((await conn.execute(query)).scalars())
        return result

    async def post_ids_by_authors(
        self, author_ids: Sequence[int], before: int | None, after: int | None, limit: int
    ) -> list[int]:
        if not author_ids:
            return []
        query = _live_posts_of(list(author_ids), before, after).limit(limit)
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())

    async def create_media(self, item: Media, owner_id: int, now: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                media.insert().values(
                    id=item.id,
                    owner_id=owner_id,
                    url=item.url,
                    width=item.width,
                    height=item.height,
                    alt=item.alt,
                    created_at=now,
                )
            )

    async def media_owned_by(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]:
        if not media_ids:
            return []
        query = select(media).where(
            media.c.owner_id == owner_id,
            media.c.id.in_(set(media_ids)),
            media.c.uploaded_at.is_not(None),
        )
        async with self._engine.connect() as conn:
            rows = {row.id: row for row in (await conn.execute(query)).all()}
        return [media_from_row(rows[i]) for i in media_ids if i in rows]

    async def unattached_media(
        self, created_before: datetime, after_id: int, limit: int
    ) -> tuple[list[Media], int | None]:
        query = (
            select(media)
            .where(media.c.created_at < created_before, media.c.id > after_id)
            .order_by(media.c.id)
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            if not rows:
                return [], None
            # Only its owner may attach a media, and only to a later post (IDs are time).
            attaching = select(posts.c.media).where(
                posts.c.author_id.in_({row.owner_id for row in rows}), posts.c.id > rows[0].id
            )
            attached = {
                int(item["id"]) for found in await conn.execute(attaching) for item in found.media
            }
        orphans = [media_from_row(row) for row in rows if row.id not in attached]
        return orphans, rows[-1].id

    async def delete_media(self, media_ids: Sequence[int]) -> int:
        if not media_ids:
            return 0
        async with self._engine.begin() as conn:
            deleted = await conn.execute(delete(media).where(media.c.id.in_(set(media_ids))))
        return int(deleted.rowcount)

    async def media_by_id(self, media_id: int) -> Media | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(media).where(media.c.id == media_id))).first()
        return media_from_row(row) if row else None

    async def mark_uploaded(self, media_id: int, width: int, height: int, now: datetime) -> bool:
        query = (
            update(media)
            .where(
                media.c.id == media_id,
                media.c.uploaded_at.is_(None),
                # Attached means published: its bytes never change again.
                media.c.attached_to.is_(None),
                media.c.avatar_of.is_(None),
            )
            .values(width=width, height=height, uploaded_at=now)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def describe_media(self, owner_id: int, media_id: int, alt: str) -> Media | None:
        query = (
            update(media)
            .where(
                media.c.id == media_id,
                media.c.owner_id == owner_id,
                media.c.attached_to.is_(None),
                media.c.avatar_of.is_(None),
            )
            .values(alt=alt)
        )
        async with self._engine.begin() as conn:
            if (await conn.execute(query)).rowcount != 1:
                return None
            row = (await conn.execute(select(media).where(media.c.id == media_id))).first()
        return media_from_row(row) if row else None

    async def forget_upload(self, media_id: int) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(update(media).where(media.c.id == media_id).values(uploaded_at=None))

    async def purge_idempotency_keys(self, older_than: datetime) -> int:
        async with self._engine.begin() as conn:
            result = await conn.execute(
                delete(idempotency_keys).where(idempotency_keys.c.created_at < older_than)
            )
        return result.rowcount or 0

    async def count(self) -> int:
        async with self._engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(posts))).scalar() or 0)


def _live_posts_of(author_ids: Sequence[int], before: int | None, after: int | None) -> Any:
    query = select(posts.c.id).where(
        posts.c.author_id.in_(author_ids), posts.c.deleted_at.is_(None)
    )
    if before is not None:
        query = query.where(posts.c.id < before)
    if after is not None:
        query = query.where(posts.c.id > after)
    return query.order_by(posts.c.id.desc())


def post_row(post: Post) -> dict[str, Any]:
    return {
        "id": post.id,
        "author_id": post.author_id,
        "text": post.text,
        "media": [media_json(m) for m in post.media],
        "visibility": post.visibility.value,
        "in_reply_to": post.in_reply_to,
        "reply_to_author_id": post.reply_to_author,
        "repost_of": post.repost_of,
        "quote_of": post.quote_of,
        "facets": facets_json(post.facets) if post.facets else None,
    }


async def uncount(conn: AsyncConnection, column: str, post_id: int) -> int | None:
    """One repost or quote of the post fewer (never below zero); its author."""
    counted = posts.c[column]
    author = await conn.execute(
        update(posts)
        .where(posts.c.id == post_id)
        .values({column: case((counted > 0, counted - 1), else_=0)})
        .returning(posts.c.author_id)
    )
    found = author.scalar()
    return None if found is None else int(found)


async def notify_mentioned(
    conn: AsyncConnection,
    post: Post,
    mentioned: Sequence[int],
    now: datetime,
    replied_to: int | None = None,
) -> None:
    """The accounts newly mentioned in the post hear of it (in the write's transaction);
    the author replied to has a reply notification already."""
    for user_id in mentioned:
        if user_id != replied_to:
            event = notify(NotificationType.MENTION, post.author_id, user_id, post.id, now)
            await record_notification(conn, event, now)


async def unrepost_counted(
    conn: AsyncConnection, repost_id: int, reposter_id: int, original_id: int
) -> None:
    """A repost gone (unreposted or deleted): its original counts one fewer, and the
    original's author's repost notification loses the reposter."""
    original_author = await uncount(conn, "reposts", original_id)
    at = created_at_of(repost_id)
    event = notify(NotificationType.REPOST, reposter_id, original_author, original_id, at, True)
    await record_notification(conn, event, at)


async def _count_quote(conn: AsyncConnection, quote: Post) -> int:
    """The quoted post, read and counted in the quote's transaction: it must be live and
    public (the use case checked as much; this closes the race with its deletion)."""
    query = select(posts.c.author_id, posts.c.visibility).where(
        posts.c.id == quote.quote_of, posts.c.deleted_at.is_(None)
    )
    quoted = (await conn.execute(query)).first()
    if quoted is None:
        raise NotFound("the post quoted is gone")
    check_shareable(
        Post(0, quoted.author_id, "", Visibility(quoted.visibility), created_at_of(1)),
        quote.author_id,
        "quoted",
    )
    await conn.execute(
        update(posts).where(posts.c.id == quote.quote_of).values(quotes=posts.c.quotes + 1)
    )
    return int(quoted.author_id)


async def _under_parent(conn: AsyncConnection, parent_id: int, reply_id: int) -> dict[str, Any]:
    """A reply's parent, read in the reply's transaction: it must exist and be live
    (so a reply never precedes its parent, and no cycle can form), and gives the reply
    its thread path and the author replied to."""
    query = select(posts.c.author_id, posts.c.thread_path).where(
        posts.c.id == parent_id, posts.c.deleted_at.is_(None)
    )
    parent = (await conn.execute(query)).first()
    if parent is None:
        raise NotFound("the post replied to is gone")
    path = reply_path(parent_id, parent.thread_path, reply_id)
    if path is None:
        # A well-formed reply the thread has no room for: a conflict with its state.
        raise Conflict(f"a thread is at most {MAX_DEPTH} replies deep")
    return {"reply_to_author_id": parent.author_id, "thread_path": path}


def media_json(item: Media) -> dict[str, Any]:
    sizes = [{"url": s.url, "w": s.width, "h": s.height} for s in item.sizes]
    pending = {"pending": True} if item.pending else {}
    return {
        "id": str(item.id),
        "url": item.url,
        "w": item.width,
        "h": item.height,
        "alt": item.alt,
        "sizes": sizes,
        **pending,
    }


def media_from_json(item: dict[str, Any]) -> Media:
    sizes = tuple(MediaSize(s["url"], s["w"], s["h"]) for s in item.get("sizes", ()))
    alt, pending = item.get("alt", ""), bool(item.get("pending"))
    return Media(int(item["id"]), item["url"], item["w"], item["h"], alt, sizes, pending)


def media_from_row(row: Any) -> Media:
    sizes = tuple(MediaSize(s["url"], s["w"], s["h"]) for s in row.sizes or ())
    return Media(row.id, row.url, row.width, row.height, row.alt, sizes, bool(row.pending))


async def _attached(conn: AsyncConnection, post: Post) -> dict[str, Any]:
    """The post row, its media marked as attached to it. The media rows are updated
    first: a worker recording sizes at the same moment waits for this transaction,
    then finds the post to update (write/media_jobs.py); sizes recorded just before
    are read here, after the lock."""
    if not post.media:
        return post_row(post)
    ids = [m.id for m in post.media]
    await conn.execute(update(media).where(media.c.id.in_(ids)).values(attached_to=post.id))
    rows = {row.id: row for row in (await conn.execute(select(media).where(media.c.id.in_(ids))))}
    current = tuple(media_from_row(rows[m.id]) if m.id in rows else m for m in post.media)
    return post_row(replace(post, media=current))


def _post_from_row(row: Any) -> Post:
    return Post(
        id=row["id"],
        author_id=row["author_id"],
        text=row["text"],
        visibility=Visibility(row["visibility"]),
        created_at=created_at_of(row["id"]),
        media=tuple(media_from_json(m) for m in row["media"]),
        deleted=row["deleted_at"] is not None,
        author_suspended=bool(row["author_suspended"]),
        held=row["moderation"] == "held",
        in_reply_to=row["in_reply_to"],
        reply_to_author=row["reply_to_author_id"],
        repost_of=row["repost_of"],
        quote_of=row["quote_of"],
        reposts=row["reposts"],
        quotes=row["quotes"],
        facets=facets_from_json(row["facets"]),
        edited_at=utc(row["edited_at"]),
    )
