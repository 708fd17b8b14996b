"""Approximate counting ports: distinct viewers per post (HyperLogLog) and engagement
per trending window (count-min sketch + top-k, or a Redis sorted set). Caches like
the rest: losing them loses the approximate figures, never the truth."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol


class ViewerSketches(Protocol):
    async def served(self, viewer_id: int, post_ids: Sequence[int]) -> dict[int, int]:
        """Count the viewer among each post's distinct viewers (again changes nothing)
        and return every post's estimated distinct viewers: ONE round trip a page."""
        ...


class TrendingStore(Protocol):
    async def add(self, weights: Mapping[int, float], at: datetime) -> None:
        """Engagement weight per post, into the current bucket of every window."""
        ...

    async def top(self, window_s: int, at: datetime, limit: int) -> list[tuple[int, float]]:
        """Up to `limit` (post ID, decayed score), best first (domain/trending.py)."""
        ...


class HourlyTallies(Protocol):
    """Per-account counts per hour of one kind of event (followers gained, likes
    received), kept for a day: what spike detection (domain/spikes.py) reads."""

    async def add(self, kind: str, counts: Mapping[int, int], hour: int) -> None: ...
    async def busiest(self, kind: str, hour: int, limit: int) -> list[tuple[int, int]]:
        """The accounts with the highest counts in that hour, highest first."""
        ...

    async def history(
        self, kind: str, account_ids: Sequence[int], hours: Sequence[int]
    ) -> dict[int, list[int]]:
        """Each account's count in each of those hours (0 where none), ONE round trip."""
        ...
