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
        key = str(user_id)
        [(data, generation)] = await self._cache.get_many([key])
        if data is not None and len(data) % 8 == 0:
            ids = array("q")
            ids.frombytes(data)
            if len(ids) >= 2 and ids[0] == SHAPE:
                return RecentLikes(ids[1], frozenset(ids[2:]))
        watermark = lowest_id_at(self._clock() - WINDOW)
        liked = await self._engagement.liked_since(user_id, watermark, LIMIT + 1)
        if len(liked) > LIMIT:
            liked = liked[:LIMIT]
            watermark = liked[-1]
        await self._cache.put(key, array("q", [SHAPE, watermark, *liked]).tobytes(), generation)
        return RecentLikes(watermark, frozenset(liked))
