"""SqlNotifications: notification groups folded in place, read markers, type switches,
dismissals (a dismissed group's row is deleted: the next activity of its key starts anew).

A batch of notification events is applied in ONE transaction that also deletes their
outbox rows: an event whose row is already gone was applied before (a redelivery after
a worker died between this commit and its acknowledgement), so it is skipped, and no
event counts twice or is lost. Each group's row is locked (placeholders inserted first,
then `SELECT ... FOR UPDATE` in key order on PostgreSQL, so concurrent workers queue on
a hot group instead of deadlocking), folded by the pure rule (domain/notifications.py)
and written back: a post liked 100,000 times is one row updated once per batch.

An undo that removes one of the listed accounts lists the most recent again from the
truth (the likes, reposts or follows of the group's window), so the list stays right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from feedloom.adapters.sql.database import among, insert_ignoring_duplicates, utc
from feedloom.adapters.sql.outbox import UNDONE
from feedloom.adapters.sql.schema import (
    blocks,
    follows,
    likes,
    mutes,
    notification_groups,
    outbox,
    posts,
    users,
)
from feedloom.domain.ids import lowest_id_at
from feedloom.domain.notifications import (
    LISTED,
    Group,
    NotificationType,
    Notified,
    by_group,
    fold,
    window_span,
)
from feedloom.ports import NotificationState

Key = tuple[int, str]


class SqlNotifications:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def apply(
        self, events: Sequence[Notified], new_id: Callable[[], int], now: datetime
    ) -> tuple[list[Group], list[datetime]]:
        if not events:
            return [], []
        async with self._engine.begin() as conn:
            fresh, written = await self._take(conn, events)
            grouped = by_group(await _unhidden(conn, fresh))
            if not grouped:
                return [], written
            current = await self._locked(conn, sorted(grouped))
            changed = []
            for key, group_events in grouped.items():
                folded = fold(current.get(key), group_events, new_id(), now)
                if folded is None:
                    continue
                group = folded.group
                if folded.refill and not folded.gone:
                    group = Group(
                        group.recipient_id,
                        group.group_key,
                        group.id,
                        group.post_id,
                        await _most_recent(conn, group),
                        group.accounts_count,
                        group.updated_at,
                    )
                await _write(conn, group, folded.gone)
                changed.append(group)
        return changed, written

    async def pending(self) -> int:
        query = select(func.count()).where(outbox.c.kind.in_(["notified", UNDONE]))
        async with self._engine.connect() as conn:
            return int((await conn.execute(query)).scalar() or 0)

    async def groups(self, recipient_id: int, before: int | None, limit: int) -> list[Group]:
        query = select(notification_groups).where(
            notification_groups.c.recipient_id == recipient_id, notification_groups.c.id > 0
        )
        if before is not None:
            query = query.where(notification_groups.c.id < before)
        query = query.order_by(notification_groups.c.id.desc()).limit(limit)
        async with self._engine.connect() as conn:
            return [_group(row) for row in await conn.execute(query)]

    async def state(self, recipient_id: int) -> NotificationState:
        query = select(users.c.notifications_read, users.c.notifications_off).where(
            users.c.id == recipient_id
        )
        muted = select(mutes.c.muted_id).where(
            mutes.c.muter_id == recipient_id, mutes.c.notifications.is_(True)
        )
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
            muted_ids = frozenset((await conn.execute(muted)).scalars())
        if row is None:
            return NotificationState(0, frozenset(), muted_ids)
        return NotificationState(
            int(row.notifications_read), _types(row.notifications_off), muted_ids
        )

    async def mark_read(self, recipient_id: int, up_to: int, at: datetime) -> int:
        # One conditional UPDATE: two devices marking at once can only move it forward.
        forward = (
            update(users)
            .where(users.c.id == recipient_id, users.c.notifications_read < up_to)
            .values(
                notifications_read=up_to,
                notifications_read_version=users.c.notifications_read_version + 1,
                notifications_read_at=at,
            )
        )
        now = select(users.c.notifications_read).where(users.c.id == recipient_id)
        async with self._engine.begin() as conn:
            await conn.execute(forward)
            return int((await conn.execute(now)).scalar() or 0)

    async def set_types_off(self, recipient_id: int, types: frozenset[NotificationType]) -> None:
        value = ",".join(sorted(kind.value for kind in types))
        query = update(users).where(users.c.id == recipient_id).values(notifications_off=value)
        async with self._engine.begin() as conn:
            await conn.execute(query)

    async def dismiss(self, recipient_id: int, group_id: int) -> bool:
        # id > 0: a worker's placeholder (id 0, locked while it folds) is no group yet.
        query = delete(notification_groups).where(
            notification_groups.c.recipient_id == recipient_id,
            notification_groups.c.id == group_id,
            notification_groups.c.id > 0,
        )
        async with self._engine.begin() as conn:
            return bool((await conn.execute(query)).rowcount)

    async def clear(self, recipient_id: int) -> None:
        query = delete(notification_groups).where(
            notification_groups.c.recipient_id == recipient_id, notification_groups.c.id > 0
        )
        async with self._engine.begin() as conn:
            await conn.execute(query)

    async def _take(
        self, conn: AsyncConnection, events: Sequence[Notified]
    ) -> tuple[list[Notified], list[datetime]]:
        """The events whose outbox rows this transaction deletes (never applied before),
        and when those rows were written."""
        seqs = [event.seq for event in events if event.seq]
        taken: dict[int, datetime] = {}
        if seqs:
            query = delete(outbox).where(among(self._dialect, outbox.c.seq, seqs))
            rows = await conn.execute(query.returning(outbox.c.seq, outbox.c.created_at))
            taken = {row.seq: utc(row.created_at) or datetime.now(UTC) for row in rows}
        return [event for event in events if event.seq in taken], list(taken.values())

    async def _locked(self, conn: AsyncConnection, keys: list[Key]) -> dict[Key, Group]:
        placeholders = [
            {
                "recipient_id": recipient,
                "group_key": key,
                "id": 0,
                "post_id": 0,
                "accounts": [],
                "accounts_count": 0,
                "updated_at": datetime.fromtimestamp(0, tz=UTC),
            }
            for recipient, key in keys
        ]
        await conn.execute(
            insert_ignoring_duplicates(self._dialect, notification_groups), placeholders
        )
        pair = tuple_(notification_groups.c.recipient_id, notification_groups.c.group_key)
        query = (
            select(notification_groups)
            .where(pair.in_(keys))
            .order_by(notification_groups.c.recipient_id, notification_groups.c.group_key)
        )
        if self._dialect == "postgresql":
            query = query.with_for_update()
        found = {}
        for row in await conn.execute(query):
            group = _group(row)
            if group.id:  # a placeholder is no group yet
                found[(group.recipient_id, group.group_key)] = group
        return found


async def _unhidden(conn: AsyncConnection, events: list[Notified]) -> list[Notified]:
    """Drop what a recipient must not hear of: from an account blocked either way, or
    muted with its notifications. An undo always passes (removing is always right)."""
    pairs = {(e.recipient_id, e.author_id) for e in events if not e.undo and e.author_id}
    if not pairs:
        return events
    recipients = {recipient for recipient, _ in pairs}
    actors = {actor for _, actor in pairs}
    blocked = select(blocks.c.blocker_id, blocks.c.blocked_id).where(
        or_(
            and_(blocks.c.blocker_id.in_(recipients), blocks.c.blocked_id.in_(actors)),
            and_(blocks.c.blocker_id.in_(actors), blocks.c.blocked_id.in_(recipients)),
        )
    )
    muted = select(mutes.c.muter_id, mutes.c.muted_id).where(
        mutes.c.muter_id.in_(recipients),
        mutes.c.muted_id.in_(actors),
        mutes.c.notifications.is_(True),
    )
    hidden: set[tuple[int, int]] = set()
    for a, b in await conn.execute(blocked):
        hidden.update({(a, b), (b, a)})
    hidden.update((a, b) for a, b in await conn.execute(muted))
    return [e for e in events if e.undo or (e.recipient_id, e.author_id) not in hidden]


async def _most_recent(conn: AsyncConnection, group: Group) -> tuple[int, ...]:
    """The group's most recent accounts, from the truth of its window."""
    span = window_span(group.group_key)
    if span is None:
        return group.accounts
    start, end = span
    query: Any
    if group.type is NotificationType.LIKE:
        query = (
            select(likes.c.user_id)
            .where(likes.c.post_id == group.post_id, likes.c.created_at >= start)
            .where(likes.c.created_at < end)
            .order_by(likes.c.created_at.desc())
        )
    elif group.type is NotificationType.REPOST:
        query = (
            select(posts.c.author_id)
            .where(posts.c.repost_of == group.post_id, posts.c.deleted_at.is_(None))
            .where(posts.c.id >= lowest_id_at(start), posts.c.id < lowest_id_at(end))
            .order_by(posts.c.id.desc())
        )
    else:
        query = (
            select(follows.c.follower_id)
            .where(follows.c.followee_id == group.recipient_id, follows.c.created_at >= start)
            .where(follows.c.created_at < end)
            .order_by(follows.c.created_at.desc())
        )
    return tuple((await conn.execute(query.limit(LISTED))).scalars())


async def _write(conn: AsyncConnection, group: Group, gone: bool) -> None:
    where = and_(
        notification_groups.c.recipient_id == group.recipient_id,
        notification_groups.c.group_key == group.group_key,
    )
    if gone:
        await conn.execute(delete(notification_groups).where(where))
        return
    await conn.execute(
        update(notification_groups)
        .where(where)
        .values(
            id=group.id,
            post_id=group.post_id,
            accounts=list(group.accounts),
            accounts_count=group.accounts_count,
            updated_at=group.updated_at,
        )
    )


def _group(row: Any) -> Group:
    updated_at = utc(row.updated_at)
    assert updated_at is not None
    return Group(
        row.recipient_id,
        row.group_key,
        row.id,
        row.post_id,
        tuple(row.accounts),
        row.accounts_count,
        updated_at,
    )


def _types(text: str) -> frozenset[NotificationType]:
    return frozenset(NotificationType(part) for part in text.split(",") if part)
