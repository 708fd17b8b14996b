"""A recipient's notifications as one cached record: the newest groups, the read
marker, the types turned off and the accounts muted for notifications.

The durable store is the truth (adapters/sql/notifications.py); this record is a
cache of it (in process on the embedded default, Redis in production, a Cluster-safe
key per user: ports.RecordCache), rebuilt from the store when missing. A warm
notifications page or unread count reads this one record and nothing else from the
store. Every write that changes what it holds invalidates it after its commit: the
worker after folding a batch, the read marker, the switches, a mute or block.

A record begins with its shape's tag: another version's shape is a miss.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson

from feedloom.domain.notifications import Group, NotificationType
from feedloom.ports import NotificationState, NotificationStore, RecordCache

SHAPE = "n1"
CACHED = 200  # groups a record holds; older pages are read from the store


@dataclass(frozen=True, slots=True)
class NotificationRecord:
    state: NotificationState
    groups: tuple[Group, ...]  # newest first
    complete: bool  # the record holds every group there is


class NotificationRecords:
    def __init__(self, cache: RecordCache, store: NotificationStore) -> None:
        self._cache, self._store = cache, store

    async def get(self, user_id: int) -> NotificationRecord:
        key = str(user_id)
        ((data, generation),) = await self._cache.get_many([key])
        if data is not None and (record := _decode(user_id, data)) is not None:
            return record
        state = await self._store.state(user_id)
        groups = await self._store.groups(user_id, None, CACHED + 1)
        record = NotificationRecord(state, tuple(groups[:CACHED]), len(groups) <= CACHED)
        await self._cache.put(key, _encode(record), generation)
        return record

    async def changed(self, user_ids: Iterable[int]) -> None:
        """After a commit that changed these recipients' groups, marker or switches."""
        keys = sorted({str(user_id) for user_id in user_ids})
        if keys:
            await self._cache.invalidate(keys)


def _encode(record: NotificationRecord) -> bytes:
    state = record.state
    return orjson.dumps(
        [
            SHAPE,
            state.read_up_to,
            sorted(kind.value for kind in state.types_off),
            sorted(state.muted),
            record.complete,
            [
                [
                    g.group_key,
                    g.id,
                    g.post_id,
                    list(g.accounts),
                    g.accounts_count,
                    int(g.updated_at.timestamp() * 1000),
                ]
                for g in record.groups
            ],
        ]
    )


def _decode(user_id: int, data: bytes) -> NotificationRecord | None:
    fields = orjson.loads(data)
    if not isinstance(fields, list) or not fields or fields[0] != SHAPE:
        return None
    _, read_up_to, types_off, muted, complete, groups = fields
    state = NotificationState(
        read_up_to, frozenset(NotificationType(kind) for kind in types_off), frozenset(muted)
    )
    return NotificationRecord(
        state,
        tuple(
            Group(
                user_id,
                key,
                group_id,
                post_id,
                tuple(accounts),
                count,
                datetime.fromtimestamp(at_ms / 1000, tz=UTC),
            )
            for key, group_id, post_id, accounts, count, at_ms in groups
        ),
        complete,
    )
