"""The repair layer of counting: recount recent posts from the truth (the unique likes
and comments rows) and fix displayed counts that drifted. Run hourly by the worker."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from feedloom.domain.ids import lowest_id_at
from feedloom.ports import Clock, CounterStore, Engagement, PostArchive

RECONCILE_WINDOW = timedelta(hours=24)
RECONCILE_LIMIT = 10_000


class ReconcileCounts:
    def __init__(
        self, archive: PostArchive, counters: CounterStore, engagement: Engagement, clock: Clock
    ) -> None:
        self._archive, self._counters, self._engagement = archive, counters, engagement
        self._clock = clock

    async def recent(self) -> int:
        """Recount the last day's posts; returns how many had drifted."""
        since = lowest_id_at(self._clock() - RECONCILE_WINDOW)
        return await self.posts(await self._archive.recent_post_ids(since, RECONCILE_LIMIT))

    async def posts(self, post_ids: Sequence[int]) -> int:
        truth = await self._engagement.true_counts(post_ids)
        shown = await self._counters.get_many(post_ids)
        drifted = {
            post_id: counts for post_id, counts in truth.items() if shown.get(post_id) != counts
        }
        if drifted:
            await self._counters.set_many(drifted)
        return len(drifted)
