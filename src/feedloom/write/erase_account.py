"""Erase an account (DELETE /v1/me, `feedloom accounts delete`): the store first, in
one transaction (adapters/sql/erasure.py says what is kept), then every cache that
could still show it.

After it: the account's tokens are refused; its posts are tombstones, gone from every
feed on the next read (their cached views are forgotten, and a deleted author's
entries are filtered on read, docs/OPERATIONS.md); the counts it was part of are
recounted from the truth; its media files are deleted; its username stays reserved
for `username_reserved_days`, then a new account may take it (write/accounts.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.domain.apps import link_key
from feedloom.lookups.cached_views import Views
from feedloom.lookups.counts import DisplayedCounts
from feedloom.lookups.reader_state import ReaderStates
from feedloom.ports import (
    AccountEraser,
    AuthorTimelineStore,
    Clock,
    Erasure,
    ObjectStore,
    RecordCache,
    TimelineStore,
)

BATCH = 1_000


class EraseAccount:
    def __init__(
        self,
        eraser: AccountEraser,
        counts: DisplayedCounts,
        token_cache: RecordCache,
        views: Views,
        states: ReaderStates,
        timelines: TimelineStore,
        author_timelines: AuthorTimelineStore,
        objects: ObjectStore,
        clock: Clock,
    ) -> None:
        self._eraser, self._counts = eraser, counts
        self._token_cache, self._views, self._states = token_cache, views, states
        self._timelines, self._author_timelines = timelines, author_timelines
        self._objects, self._clock = objects, clock

    async def __call__(self, user_id: int) -> Erasure:
        # The bytes before the rows: an object store that cannot be reached fails the
        # erasure before anything is erased, so running it again deletes them; the rows
        # first would lose their names. Media uploaded meanwhile go after the rows.
        files = await self._eraser.media_files(user_id)
        if files:
            await self._objects.delete(files)
        erased = await self._eraser.erase_account(user_id, self._clock())
        # Its sessions, and the links an app's user tokens found it by.
        forgotten = [*erased.token_hashes, *(link_key(*link) for link in erased.app_links)]
        if forgotten:
            await self._token_cache.invalidate(forgotten)
        await self._forget_views(user_id, erased)
        await self._repair_counts(erased.touched_post_ids)
        await self._timelines.drop(user_id)
        await self._author_timelines.replace(user_id, [])
        if late := sorted(set(erased.media_files) - set(files)):
            await self._objects.delete(late)
        return erased

    async def _forget_views(self, user_id: int, erased: Erasure) -> None:
        everyone = [user_id, *erased.related_user_ids]
        await self._views.forget_profiles(everyone)  # counts and the deleted flag
        await self._states.changed(everyone)  # their relations lost this account
        for batch in _batches(erased.post_ids):
            await self._views.forget_posts(batch)

    async def _repair_counts(self, post_ids: Sequence[int]) -> None:
        for batch in _batches(post_ids):
            await self._counts.recount(batch)


def _batches(ids: Sequence[int]) -> list[Sequence[int]]:
    return [ids[i : i + BATCH] for i in range(0, len(ids), BATCH)]
