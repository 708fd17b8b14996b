"""In-process sketches: Apache DataSketches' HyperLogLog per post for distinct viewers,
and per trending window bucket a count-min sketch with a small top-k of candidates.

Memory stays bounded: sketches of the least recently served posts are dropped past
`max_posts`, and only the current and previous bucket of each window are kept.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime

from datasketches import count_min_sketch, hll_sketch

from feedloom.domain.trending import bucket_of, decayed, elapsed_share

HLL_LG_K = 12  # 4096 registers: about 1.6 % standard error
CMS_HASHES, CMS_BUCKETS = 5, 2_719  # 99 % confidence of error within 0.1 % of the total
TOP_K = 200


class MemoryViewerSketches:
    def __init__(self, max_posts: int = 20_000) -> None:
        self._max_posts = max_posts
        self._sketches: OrderedDict[int, hll_sketch] = OrderedDict()

    async def served(self, viewer_id: int, post_ids: Sequence[int]) -> dict[int, int]:
        counts = {}
        sketches = self._sketches
        for post_id in post_ids:
            sketch = sketches.get(post_id)
            if sketch is None:
                sketch = sketches[post_id] = hll_sketch(HLL_LG_K)
            else:
                sketches.move_to_end(post_id)
            sketch.update(viewer_id)
            counts[post_id] = round(sketch.get_estimate())
        while len(sketches) > self._max_posts:
            sketches.popitem(last=False)
        return counts


class _Bucket:
    """One window bucket: a count-min sketch of every post's weight, and the TOP_K
    posts with the highest estimates seen so far (the only ones `top` can return)."""

    def __init__(self) -> None:
        self.sketch = count_min_sketch(CMS_HASHES, CMS_BUCKETS)
        self.top: dict[int, float] = {}

    def add(self, post_id: int, weight: float) -> None:
        self.sketch.update(post_id, weight)
        estimate = self.sketch.get_estimate(post_id)
        if post_id in self.top or len(self.top) < TOP_K:
            self.top[post_id] = estimate
            return
        smallest = min(self.top, key=self.top.__getitem__)
        if estimate > self.top[smallest]:
            del self.top[smallest]
            self.top[post_id] = estimate

    def estimate(self, post_id: int) -> float:
        return float(self.sketch.get_estimate(post_id))


class MemoryTrendingStore:
    def __init__(self, windows_s: Sequence[int]) -> None:
        self._windows = tuple(windows_s)
        self._buckets: dict[tuple[int, int], _Bucket] = {}

    async def add(self, weights: Mapping[int, float], at: datetime) -> None:
        for window_s in self._windows:
            bucket = self._bucket(window_s, bucket_of(window_s, at))
            for post_id, weight in weights.items():
                if weight > 0:
                    bucket.add(post_id, weight)

    async def top(self, window_s: int, at: datetime, limit: int) -> list[tuple[int, float]]:
        number = bucket_of(window_s, at)
        current = self._buckets.get((window_s, number)) or _Bucket()
        previous = self._buckets.get((window_s, number - 1)) or _Bucket()
        elapsed = elapsed_share(window_s, at)
        scores = {
            post_id: decayed(current.estimate(post_id), previous.estimate(post_id), elapsed)
            for post_id in current.top.keys() | previous.top.keys()
        }
        best = sorted(scores.items(), key=lambda item: (-item[1], -item[0]))
        return best[:limit]

    def _bucket(self, window_s: int, number: int) -> _Bucket:
        key = (window_s, number)
        if key not in self._buckets:
            # Older buckets no longer count toward any score: drop them.
            for stale in [k for k in self._buckets if k[0] == window_s and k[1] < number - 1]:
                del self._buckets[stale]
            self._buckets[key] = _Bucket()
        return self._buckets[key]


class MemoryHourlyTallies:
    def __init__(self, keep_hours: int = 26) -> None:
        self._keep = keep_hours
        self._hours: dict[tuple[str, int], Counter[int]] = {}

    async def add(self, kind: str, counts: Mapping[int, int], hour: int) -> None:
        self._hours.setdefault((kind, hour), Counter()).update(counts)
        for stale in [key for key in self._hours if key[1] <= hour - self._keep]:
            del self._hours[stale]

    async def busiest(self, kind: str, hour: int, limit: int) -> list[tuple[int, int]]:
        return self._hours.get((kind, hour), Counter()).most_common(limit)

    async def history(
        self, kind: str, account_ids: Sequence[int], hours: Sequence[int]
    ) -> dict[int, list[int]]:
        empty: Counter[int] = Counter()
        return {
            account: [self._hours.get((kind, hour), empty)[account] for hour in hours]
            for account in account_ids
        }
