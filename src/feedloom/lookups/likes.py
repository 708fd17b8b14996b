"""liked_by_me without the durable store on a warm read.

Each reader's cached record holds a watermark post ID and every post at or above it
that the reader likes (IDs are time-ordered: the watermark is a time). Feed pages show
recent posts, so their likes are answered from the record; only older posts go to the
store. A like appends to the record (write-through); an unlike drops the record,
which is rebuilt on the next read. Records are capped: a reader with more recent
likes than `LIMIT` gets a watermark just below the newest `LIMIT`.

A record is 64-bit integers: its shape's tag (negative: never an ID), the watermark,
then the post IDs. A record of a tag this code does not know (another version's, in a
rolling deploy) is a miss, rebuilt from the store.
"""

from __future__ import annotations

import asyncio
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from feedloom.domain.ids import lowest_id_at
from feedloom.ports import Clock, Engagement, RecordCache

WINDOW = timedelta(days=7)
LIMIT = 2_000
SHAPE = -2  # a new layout: a new tag


@dataclass(frozen=True, slots=True)
class RecentLikes:
    """What a reader liked lately: every post at or above `watermark` they like."""

    watermark: int
    post_ids: frozenset[int]


class Likes:
    def __init__(self, cache: RecordCache, engagement: Engagement, clock: Clock) -> None:
        self._cache, self._engagement, self._clock = cache, engagement, clock

    async def liked_among(self, user_id: int, post_ids: Sequence[int]) -> set[int]:
        """Which of these posts the reader likes."""
        if not post_ids:
            return set()
        recent = await self.recent(user_id)
        older = [post_id for post_id in post_ids if post_id < recent.watermark]
        found = {post_id for post_id in post_ids if post_id in recent.post_ids}
        if older:
            found |= await self._engagement.liked_among(user_id, older)
        return found

    async def liked(self, user_id: int, post_id: int) -> None:
        """After a like committed: the record gains it."""
        await self._cache.append_if_present(str(user_id), array("q", [post_id]).tobytes())

    async def unliked(self, user_id: int) -> None:
        await self._cache.invalidate([str(user_id)])

    async def recent(self, user_id: int) -> RecentLikes:
        return (await self.recent_many([user_id]))[user_id]

    async def recent_many(self, user_ids: Sequence[int]) -> dict[int, RecentLikes]:
        """Several people's recent likes: ONE cache round trip; missing records are
        rebuilt from the store in one query (an index range of each one's likes)."""
        keys = [str(user_id) for user_id in user_ids]
        found: dict[int, RecentLikes] = {}
        misses: list[tuple[int, int]] = []
        for user_id, (data, generation) in zip(
            user_ids, await self._cache.get_many(keys), strict=True
        ):
            record = _decoded(data)
            if record is None:
                misses.append((user_id, generation))
            else:
                found[user_id] = record
        if misses:
            found.update(await self._rebuild(misses))
        return found

    async def _rebuild(self, misses: Sequence[tuple[int, int]]) -> dict[int, RecentLikes]:
        """Missing records from the store (ONE query for all), written back."""
        since = lowest_id_at(self._clock() - WINDOW)
        liked = await self._engagement.liked_since([user for user, _ in misses], since, LIMIT + 1)
        rebuilt, puts = {}, []
        for user_id, generation in misses:
            ids, watermark = liked[user_id], since
            if len(ids) > LIMIT:
                ids = ids[:LIMIT]
                watermark = ids[-1]
            rebuilt[user_id] = RecentLikes(watermark, frozenset(ids))
            record = array("q", [SHAPE, watermark, *ids]).tobytes()
            puts.append(self._cache.put(str(user_id), record, generation))
        await asyncio.gather(*puts)
        return rebuilt


def _decoded(data: bytes | None) -> RecentLikes | None:
    if data is None or len(data) % 8:
        return None
    ids = array("q")
    ids.frombytes(data)
    if len(ids) < 2 or ids[0] != SHAPE:
        return None
    return RecentLikes(ids[1], frozenset(ids[2:]))
