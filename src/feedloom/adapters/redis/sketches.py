"""Sketches in Redis, shared by every process.

Distinct viewers: one HyperLogLog per post (PFADD, PFCOUNT: 12 KB at most, 0.81 %
standard error), a page's adds and counts in one script call (on a cluster, whose keys
live in many slots, the same steps as commands, each node's in one write): one round
trip.

Trending: one sorted set per window bucket, ZINCRBY'd with each flush's engagement
weights and trimmed to the TOP_KEPT best. Why not a count-min sketch in Lua: the
sketch alone cannot answer "which posts are best", it needs a top-k structure next to
it, and in Redis that structure is a sorted set anyway; the sorted set also gives
exact counts for the posts it keeps and is read best first in one command. Trimming
bounds its memory (a post that drops out starts again from zero, as in a space-saving
top-k). Each bucket expires two windows after it began.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import cast

from cachetools import TTLCache

from feedloom.adapters.redis import lua
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import (
    LuaScript,
    NearRegion,
    RedisClient,
    ScriptRunner,
    is_cluster,
    read_through,
)
from feedloom.domain.trending import bucket_of, decayed, elapsed_share

VIEWS_TTL = timedelta(days=30)
TOP_KEPT = 10_000
TOP_READ = 500  # candidates read per bucket
SERVED = LuaScript(lua.SERVED)
COUNTED_FOR_S = 600.0  # a (viewer, post) added lately is not added again for this long
COUNTED_KEPT = 200_000  # pairs remembered unless told otherwise


class RecentlyCounted:
    """(viewer, post) pairs this process added to a sketch lately. A reader reopening
    their feed is served the same posts again and again; adding them again changes no
    estimate (a HyperLogLog counts distinct viewers) and costs Redis a PFADD and an
    EXPIRE per post, about half of a warm page's Redis time (docs/BENCHMARKS.md). What
    is skipped: the sketch's expiry is pushed back at most `for_s` later than it would
    be. Bounded: the oldest go first."""

    def __init__(self, for_s: float = COUNTED_FOR_S, limit: int = COUNTED_KEPT) -> None:
        # viewer << 64 | post: ints, no tuples to track
        self._added: TTLCache[int, bool] = TTLCache(maxsize=limit, ttl=for_s)

    def flags(self, viewer_id: int, post_ids: Sequence[int]) -> list[str]:
        """ "0" for each post this viewer was added to lately, "1" for the others."""
        added = self._added
        return ["0" if viewer_id << 64 | post_id in added else "1" for post_id in post_ids]

    def remember(self, viewer_id: int, post_ids: Sequence[int], flags: Sequence[str]) -> None:
        added = self._added
        for post_id, flag in zip(post_ids, flags, strict=True):
            if flag == "1":
                added[viewer_id << 64 | post_id] = True


class RedisViewerSketches:
    """With a near region (near_cache.py), the estimates this process read stay in it
    while Redis says the sketch has not changed: a page whose reader was counted lately
    on every post it shows (`RecentlyCounted`) asks Redis nothing. A post the reader is
    to be counted on goes to Redis, kept estimate or not: that is a write. The estimate
    it returns is kept too, though counting changed the sketch (`keep_own`): otherwise
    the reader's next page would read again every estimate their first one changed.
    The price: if another process counts a viewer of the same post in that instant,
    this process shows that post one viewer low until its next viewer (an estimate
    within a few percent anyway)."""

    def __init__(
        self,
        client: RedisClient,
        keys: RedisKeys,
        ttl: timedelta = VIEWS_TTL,
        near: NearRegion[int] | None = None,
        counted: int = COUNTED_KEPT,
    ) -> None:
        self._client, self._keys = client, keys
        self._scripts = ScriptRunner(client)
        self._ttl_s = int(ttl.total_seconds())
        self._counted = RecentlyCounted(limit=counted)
        self._near = near

    async def served(self, viewer_id: int, post_ids: Sequence[int]) -> dict[int, int]:
        if not post_ids:
            return {}
        flags = self._counted.flags(viewer_id, post_ids)
        adding = {post_id for post_id, flag in zip(post_ids, flags, strict=True) if flag == "1"}

        async def serve(ids: Sequence[int]) -> dict[int, int]:
            return await self._serve(viewer_id, ids, ["1" if i in adding else "0" for i in ids])

        estimates = await read_through(self._near, post_ids, serve, always=list(adding))
        self._counted.remember(viewer_id, post_ids, flags)
        if self._near is not None and adding:  # the estimates right after counting
            self._near.keep_own({post_id: estimates[post_id] for post_id in adding})
        return estimates

    async def _serve(
        self, viewer_id: int, post_ids: Sequence[int], flags: Sequence[str]
    ) -> dict[int, int]:
        keys = [self._keys.viewers(post_id) for post_id in post_ids]
        if is_cluster(self._client):
            estimates = await self._served_on_cluster(viewer_id, keys, flags)
        else:
            estimates = await self._scripts.call(SERVED, keys, [viewer_id, self._ttl_s, *flags])
        return {post_id: int(n) for post_id, n in zip(post_ids, estimates, strict=True)}

    async def _served_on_cluster(
        self, viewer_id: int, keys: Sequence[str], flags: Sequence[str]
    ) -> list[int]:
        """A page's sketches live in many slots, so no one script call: SERVED's steps
        as commands, each node's in one write. A sketch that reads 0 was lost; its
        viewer is added again in a second round trip (rare)."""
        counts = await self._add_and_count(viewer_id, keys, flags)
        lost = [
            i
            for i, (flag, n) in enumerate(zip(flags, counts, strict=True))
            if flag == "0" and n == 0
        ]
        if lost:
            again = await self._add_and_count(viewer_id, [keys[i] for i in lost], ["1"] * len(lost))
            for i, n in zip(lost, again, strict=True):
                counts[i] = n
        return counts

    async def _add_and_count(
        self, viewer_id: int, keys: Sequence[str], flags: Sequence[str]
    ) -> list[int]:
        pipe = self._client.pipeline(transaction=False)  # each node's in one write
        for key, flag in zip(keys, flags, strict=True):
            if flag == "1":
                pipe.pfadd(key, viewer_id)
                pipe.expire(key, self._ttl_s)
            pipe.execute_command("PFCOUNT", key)  # a cluster pipeline blocks pfcount()
        replies = iter(await pipe.execute())
        counts = []
        for flag in flags:
            if flag == "1":
                next(replies)  # PFADD's
                next(replies)  # EXPIRE's
            counts.append(int(next(replies)))
        return counts


class RedisTrendingStore:
    def __init__(
        self, client: RedisClient, keys: RedisKeys, windows_s: Sequence[int], kind: str = "tr"
    ) -> None:
        self._client, self._keys, self._windows = client, keys, tuple(windows_s)
        self._kind = kind  # what is counted: posts ("tr") or tags ("tt")

    async def add(self, weights: Mapping[int, float], at: datetime) -> None:
        positive = {post_id: weight for post_id, weight in weights.items() if weight > 0}
        if not positive:
            return
        pipe = self._client.pipeline(transaction=False)
        for window_s in self._windows:
            key = self._keys.trending(window_s, bucket_of(window_s, at), self._kind)
            for post_id, weight in positive.items():
                pipe.zincrby(key, weight, str(post_id))
            pipe.zremrangebyrank(key, 0, -(TOP_KEPT + 1))
            pipe.expire(key, 2 * window_s + 60)
        await pipe.execute()

    async def top(self, window_s: int, at: datetime, limit: int) -> list[tuple[int, float]]:
        number = bucket_of(window_s, at)
        pipe = self._client.pipeline(transaction=False)
        for bucket in (number, number - 1):
            key = self._keys.trending(window_s, bucket, self._kind)
            pipe.zrange(key, 0, max(limit, TOP_READ) - 1, desc=True, withscores=True)
        current, previous = await pipe.execute()
        now = {int(member): float(score) for member, score in current}
        before = {int(member): float(score) for member, score in previous}
        elapsed = elapsed_share(window_s, at)
        scores = {
            post_id: decayed(now.get(post_id, 0.0), before.get(post_id, 0.0), elapsed)
            for post_id in now.keys() | before.keys()
        }
        return sorted(scores.items(), key=lambda item: (-item[1], -item[0]))[:limit]


class RedisHourlyTallies:
    """One sorted set per (kind, hour): account -> count, expiring after a day."""

    def __init__(self, client: RedisClient, keys: RedisKeys, keep_hours: int = 26) -> None:
        self._client, self._keys, self._keep_s = client, keys, keep_hours * 3_600

    async def add(self, kind: str, counts: Mapping[int, int], hour: int) -> None:
        if not counts:
            return
        key = self._keys.hourly(kind, hour)
        pipe = self._client.pipeline(transaction=False)
        for account, count in counts.items():
            pipe.zincrby(key, count, str(account))
        pipe.expire(key, self._keep_s)
        await pipe.execute()

    async def busiest(self, kind: str, hour: int, limit: int) -> list[tuple[int, int]]:
        key = self._keys.hourly(kind, hour)
        found = cast(
            list[tuple[bytes, float]],
            await self._client.zrange(key, 0, limit - 1, desc=True, withscores=True),
        )
        return [(int(member), int(score)) for member, score in found]

    async def history(
        self, kind: str, account_ids: Sequence[int], hours: Sequence[int]
    ) -> dict[int, list[int]]:
        if not account_ids:
            return {}
        members = [str(account) for account in account_ids]
        pipe = self._client.pipeline(transaction=False)
        for hour in hours:
            pipe.zmscore(self._keys.hourly(kind, hour), members)
        per_hour = await pipe.execute()
        return {
            account: [int(scores[i] or 0) for scores in per_hour]
            for i, account in enumerate(account_ids)
        }
