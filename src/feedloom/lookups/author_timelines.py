"""Author timelines, cache-aside: recent post IDs per author, refilled from the store.

Used three ways: readers pull big accounts' posts, rebuilds merge followees' lists,
and a new follow merges the followee's recent posts into the follower's timeline.
"""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.ports import AuthorTimelineStore, PostArchive


class AuthorTimelines:
    def __init__(self, cache: AuthorTimelineStore, archive: PostArchive, length: int) -> None:
        self._cache, self._archive, self._length = cache, archive, length

    async def recent(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        """Newest-first recent post IDs of each author (empty lists included)."""
        found = await self._cache.read_many(author_ids)
        missing = [author_id for author_id in author_ids if author_id not in found]
        if missing:
            loaded = await self._archive.author_post_ids(missing, None, self._length)
            for author_id, post_ids in loaded.items():
                await self._cache.replace(author_id, post_ids)
            found.update(loaded)
        return found

    def holds_all(self, recent: list[int]) -> bool:
        """Whether a list `recent` returned is the author's whole history (not cut)."""
        return len(recent) < self._length

    async def recent_of(self, author_id: int) -> list[int]:
        return (await self.recent([author_id])).get(author_id, [])
