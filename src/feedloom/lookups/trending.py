"""Engagement toward trending, batched like the counters: likes and comments of a
flush interval become one weight per post and one write to the trending store.
Accounts flagged as suspicious are never added (write/engagement.py)."""

from __future__ import annotations

from collections import defaultdict

from feedloom.ports import Clock, TrendingStore


class TrendingTally:
    def __init__(self, store: TrendingStore, clock: Clock) -> None:
        self._store, self._clock = store, clock
        self._weights: defaultdict[int, float] = defaultdict(float)

    def add(self, post_id: int, weight: float) -> None:
        self._weights[post_id] += weight

    async def flush(self) -> int:
        weights, self._weights = dict(self._weights), defaultdict(float)
        if weights:
            await self._store.add(weights, self._clock())
        return len(weights)
