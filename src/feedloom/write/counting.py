"""The repair layer of counting: recount from the truth (the unique likes and comments
rows) every post whose counter changed since the last run, and fix what drifted.

Coverage follows engagement, not age: the counter store keeps the set of touched
posts (every increment adds its post), and each run drains it in batches of
`BATCH`, one truth query each. At the brief's 5 M posts a day, even if every post
were engaged within the hour, a run is a few thousand batched queries. What each run
finds is observed, not thrown away: `displayed - true` per recounted post goes into
the drift histogram, and the last run's totals into gauges (docs/OPERATIONS.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from feedloom.metrics import Metrics
from feedloom.ports import CounterStore, Engagement

BATCH = 1_000
MAX_PER_RUN = 1_000_000


@dataclass(frozen=True, slots=True)
class Drift:
    checked: int = 0
    drifted: int = 0
    total: int = 0  # sum of |displayed - true|, likes and comments


class ReconcileCounts:
    def __init__(self, counters: CounterStore, engagement: Engagement, metrics: Metrics) -> None:
        self._counters, self._engagement, self._metrics = counters, engagement, metrics

    async def engaged(self) -> int:
        """Recount every post engaged with since the last run; returns how many drifted."""
        run = Drift()
        while run.checked < MAX_PER_RUN and (batch := await self._counters.take_touched(BATCH)):
            found = await self.posts(batch)
            run = Drift(
                run.checked + found.checked, run.drifted + found.drifted, run.total + found.total
            )
        self._metrics.count_drift_posts.set(run.drifted)
        self._metrics.count_drift_abs.set(run.total)
        return run.drifted

    async def posts(self, post_ids: Sequence[int]) -> Drift:
        truth = await self._engagement.true_counts(post_ids)
        shown = await self._counters.get_many(post_ids)
        drifted, total = {}, 0
        for post_id, counts in truth.items():
            displayed = shown.get(post_id)
            if displayed is None:
                continue  # not cached: its next read recounts it anyway
            self._metrics.count_drift.observe(displayed.likes - counts.likes)
            if displayed != counts:
                drifted[post_id] = counts
                total += abs(displayed.likes - counts.likes)
                total += abs(displayed.comments - counts.comments)
        if drifted:
            await self._counters.set_many(drifted)
        return Drift(len(truth), len(drifted), total)
