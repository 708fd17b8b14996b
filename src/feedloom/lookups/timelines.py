"""Home timeline rebuilds: a k-way merge of the followees' (and the reader's own)
author timelines. Timelines are a cache: whatever lost one (an inactive user's expiry,
a flushed Redis, a fresh import), this puts it back."""

from __future__ import annotations

from collections.abc import Iterable

from feedloom.domain.timeline import capped, merge_newest_first
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.metrics import Metrics
from feedloom.ports import TimelineStore


class TimelineRebuilder:
    def __init__(
        self,
        timelines: TimelineStore,
        author_timelines: AuthorTimelines,
        metrics: Metrics,
        length: int,
    ) -> None:
        self._timelines, self._authors = timelines, author_timelines
        self._rebuilds, self._length = metrics.timeline_rebuilds, length

    async def rebuild(self, user_id: int, followees: Iterable[int], follows_pulled: bool) -> None:
        """Pulled accounts are included too: those beyond the per-read cap reach the
        reader this way. The timeline is complete when it holds everything:
        no author list was cut at its cap, the merge fits, and no followee is pulled
        (a pulled account's later posts reach the reader only through its capped list).

        A fan-out running meanwhile must not be lost: the timeline is held first (made
        if missing, so the fan-out lands in it), and the rebuilt list is merged into
        whatever the timeline gained while the author timelines were read."""
        await self._timelines.hold(user_id)
        lists = await self._authors.recent([*followees, user_id])
        merged = capped(merge_newest_first(lists.values()), self._length)
        complete = (
            not follows_pulled
            and len(merged) < self._length
            and all(self._authors.holds_all(ids) for ids in lists.values())
        )
        await self._timelines.rebuild(user_id, merged, complete)
        self._rebuilds.inc()
