"""In-process caches: shared views, counters, feed sessions and guarded records."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar

from feedloom.domain.model import Counts

V = TypeVar("V")


class MemoryViewCache(Generic[V]):
    """A bounded LRU of views, kept as the (immutable) objects themselves: nothing to
    serialize in process. Memory stays flat however many posts exist."""

    def __init__(self, max_items: int = 100_000) -> None:
        self._max_items = max_items
        self._items: OrderedDict[int, V] = OrderedDict()

    async def get_many(self, keys: Sequence[int]) -> dict[int, V]:
        found = {}
        get, used = self._items.get, self._items.move_to_end  # bound once: a page asks ~25
        for key in keys:
            value = get(key)
            if value is not None:
                used(key)
                found[key] = value
        return found

    async def set_many(self, items: Mapping[int, V]) -> None:
        self._items.update(items)
        for key in items:
            self._items.move_to_end(key)
        while len(self._items) > self._max_items:
            self._items.popitem(last=False)

    async def delete_many(self, keys: Sequence[int]) -> None:
        for key in keys:
            self._items.pop(key, None)

    def clear(self) -> None:
        self._items.clear()


class MemoryCounterStore:
    """Counts per post, with the sub-counters of hot posts kept apart as in Redis, so
    the contract (sums, promotion, demotion, recounts) is the same on both."""

    def __init__(self) -> None:
        self._counts: dict[int, Counts] = {}
        self._shards: dict[int, dict[int, Counts]] = {}
        self._touched: set[int] = set()

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        counts, shards = self._counts, self._shards
        found = {}
        for post_id in post_ids:
            stored = counts.get(post_id)
            if stored is None:
                continue
            # A post that is not hot and not below zero is its stored Counts as it is.
            plain = post_id not in shards and stored.likes >= 0 and stored.comments >= 0
            found[post_id] = stored if plain else self._total(post_id)
        return found

    def _total(self, post_id: int) -> Counts:
        total = self._counts[post_id]
        for part in self._shards.get(post_id, {}).values():
            total = Counts(total.likes + part.likes, total.comments + part.comments)
        return Counts(max(0, total.likes), max(0, total.comments))

    async def set_many(self, counts: Mapping[int, Counts]) -> None:
        self._counts.update(counts)
        for post_id in counts:
            self._shards.pop(post_id, None)

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        sharded = sharded or {}
        for post_id, delta in deltas.items():
            self._touched.add(post_id)
            current = self._counts.get(post_id)
            if current is None:
                continue
            if post_id in sharded:
                parts = self._shards.setdefault(post_id, {})
                part = parts.get(sharded[post_id], Counts())
                parts[sharded[post_id]] = Counts(
                    part.likes + delta.likes, part.comments + delta.comments
                )
            else:
                self._counts[post_id] = Counts(
                    likes=max(0, current.likes + delta.likes),
                    comments=max(0, current.comments + delta.comments),
                )

    async def demote(self, post_ids: Sequence[int]) -> None:
        for post_id in post_ids:
            if post_id in self._counts:
                self._counts[post_id] = self._total(post_id)
            self._shards.pop(post_id, None)

    async def take_touched(self, limit: int) -> list[int]:
        taken = sorted(self._touched)[:limit]
        self._touched.difference_update(taken)
        return taken

    def clear(self) -> None:
        self._counts.clear()
        self._shards.clear()


class MemoryFeedSessionStore:
    SWEEP_EVERY = 256

    def __init__(self) -> None:
        self._sessions: dict[str, tuple[float, list[int]]] = {}
        self._saves = 0

    async def save(self, session_id: str, post_ids: Sequence[int], ttl_s: int) -> None:
        now = time.monotonic()
        self._saves += 1
        if self._saves % self.SWEEP_EVERY == 0:
            # An occasional sweep keeps memory bounded by the sessions of the last TTL
            # without paying for a scan on every save.
            self._sessions = {k: v for k, v in self._sessions.items() if v[0] > now}
        self._sessions[session_id] = (now + ttl_s, list(post_ids))

    async def load(self, session_id: str) -> list[int] | None:
        entry = self._sessions.get(session_id)
        if entry is None or entry[0] <= time.monotonic():
            return None
        return list(entry[1])


class MemoryRecordCache:
    """Generation-guarded records (ports.RecordCache), bounded LRU like the view cache.
    Generations outlive their records: a generation forgotten too early could let a
    stale filler through, so they are kept until the record count bound is far away."""

    def __init__(self, max_items: int = 200_000) -> None:
        self._max_items = max_items
        self._records: OrderedDict[str, bytes] = OrderedDict()
        self._generations: dict[str, int] = {}

    async def get_many(self, keys: Sequence[str]) -> list[tuple[bytes | None, int]]:
        found: list[tuple[bytes | None, int]] = []
        for key in keys:
            record = self._records.get(key)
            if record is not None:
                self._records.move_to_end(key)
            found.append((record, self._generations.get(key, 0)))
        return found

    async def put(self, key: str, value: bytes, generation: int) -> None:
        if self._generations.get(key, 0) != generation:
            return  # a write committed since the caller read the store
        self._records[key] = value
        self._records.move_to_end(key)
        if len(self._records) > self._max_items:
            self._records.popitem(last=False)

    async def append_if_present(self, key: str, data: bytes) -> None:
        record = self._records.get(key)
        self._bump(key)
        if record is not None:
            self._records[key] = record + data

    async def invalidate(self, keys: Sequence[str]) -> None:
        for key in keys:
            self._bump(key)
            self._records.pop(key, None)

    def _bump(self, key: str) -> None:
        self._generations[key] = self._generations.get(key, 0) + 1
        if len(self._generations) > 4 * self._max_items:
            # Dropping every generation at once is safe only with the records: a record
            # cached under an old generation could otherwise never be invalidated.
            self._generations.clear()
            self._records.clear()

    def clear(self) -> None:
        self._records.clear()
