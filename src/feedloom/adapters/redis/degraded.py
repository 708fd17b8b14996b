"""Degraded mode: when Redis is unreachable, the caches behave as if empty.

The durable store holds the truth, so a cache outage should cost speed, not
availability: a timeline read that fails reads as "no timeline", and the read path
then serves the feed chronologically from the durable store (candidates.py's archive
source); view and counter reads fall back to the store; cache writes are skipped;
the rate limiter falls back to a per-process one (limits hold, per process). Posting
never touches a cache on its way to 201, so it keeps working too. Fan-out waits: the
relay cannot publish, so events stay in the outbox until Redis is back, and are
delivered then.

Only connection-level failures are masked (unreachable, timed out, cluster down); a
script or protocol error is a bug and still raises.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Generic, TypeVar

from redis.exceptions import ClusterDownError, ConnectionError, TimeoutError

from feedloom.domain.errors import Unavailable
from feedloom.domain.model import Counts
from feedloom.ports import (
    AuthorTimelineStore,
    CachePorts,
    CounterStore,
    FeedSessionStore,
    HourlyTallies,
    PostRun,
    RateDecision,
    RateLimiter,
    RateRule,
    RecordCache,
    TimelineStore,
    TrendingStore,
    ViewCache,
    ViewerSketches,
)

log = logging.getLogger(__name__)
OUTAGE = (ConnectionError, TimeoutError, ClusterDownError, OSError)
T = TypeVar("T")
V = TypeVar("V")
OnOutage = Callable[[str], None]


async def _or(fallback: T, call: Awaitable[T], port: str, on_outage: OnOutage) -> T:
    try:
        return await call
    except OUTAGE as error:
        log.warning("%s unavailable (%s): degraded", port, type(error).__name__)
        on_outage(port)
        return fallback


class DegradedTimelineStore:
    def __init__(self, inner: TimelineStore, on_outage: OnOutage) -> None:
        self._inner, self._on = inner, on_outage

    async def read(self, user_id: int, before: int | None, limit: int) -> list[int] | None:
        return await _or(None, self._inner.read(user_id, before, limit), "timelines", self._on)

    async def read_page(
        self, user_id: int, before: int | None, limit: int
    ) -> tuple[list[int], bool] | None:
        page = self._inner.read_page(user_id, before, limit)
        return await _or(None, page, "timelines", self._on)

    async def replace(self, user_id: int, post_ids: Sequence[int], complete: bool = False) -> None:
        replaced = self._inner.replace(user_id, post_ids, complete)
        await _or(None, replaced, "timelines", self._on)

    async def mark_incomplete(self, user_id: int) -> None:
        await _or(None, self._inner.mark_incomplete(user_id), "timelines", self._on)

    async def insert_if_present(self, user_ids: Sequence[int], post_id: int) -> int:
        # A fan-out must not be acked as done while Redis is away: let it raise.
        return await self._inner.insert_if_present(user_ids, post_id)

    async def insert_many(self, runs: Sequence[PostRun]) -> int:
        return await self._inner.insert_many(runs)  # fan-out: retried, not skipped

    async def hold(self, user_id: int) -> None:
        await _or(None, self._inner.hold(user_id), "timelines", self._on)

    async def rebuild(self, user_id: int, post_ids: Sequence[int], complete: bool) -> None:
        await _or(None, self._inner.rebuild(user_id, post_ids, complete), "timelines", self._on)

    async def merge_if_present(self, user_id: int, post_ids: Sequence[int]) -> None:
        await _or(None, self._inner.merge_if_present(user_id, post_ids), "timelines", self._on)

    async def remove(self, user_id: int, post_ids: Sequence[int]) -> None:
        await _or(None, self._inner.remove(user_id, post_ids), "timelines", self._on)

    async def drop(self, user_id: int) -> None:
        await _or(None, self._inner.drop(user_id), "timelines", self._on)

    async def touch(self, user_id: int) -> None:
        await _or(None, self._inner.touch(user_id), "timelines", self._on)

    async def expires_in(self, user_id: int) -> float | None:
        return await _or(None, self._inner.expires_in(user_id), "timelines", self._on)


class DegradedAuthorTimelineStore:
    def __init__(
        self, inner: AuthorTimelineStore, on_outage: OnOutage, port: str = "author_timelines"
    ) -> None:
        self._inner, self._on, self._port = inner, on_outage, port

    async def read_many(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        empty: dict[int, list[int]] = {}
        return await _or(empty, self._inner.read_many(author_ids), self._port, self._on)

    async def replace(self, author_id: int, post_ids: Sequence[int]) -> None:
        await _or(None, self._inner.replace(author_id, post_ids), self._port, self._on)

    async def push_if_present(self, author_id: int, post_id: int) -> None:
        await self._inner.push_if_present(author_id, post_id)  # fan-out: retried, not skipped

    async def push_many(self, pairs: Sequence[tuple[int, int]]) -> None:
        await self._inner.push_many(pairs)  # fan-out: retried, not skipped

    async def remove(self, author_id: int, post_id: int) -> None:
        await self._inner.remove(author_id, post_id)  # delete cleanup: retried, not skipped

    async def drop(self, author_id: int) -> None:
        await self._inner.drop(author_id)  # a stale list must not survive the write


class DegradedViewCache(Generic[V]):
    def __init__(self, inner: ViewCache[V], on_outage: OnOutage, name: str = "views") -> None:
        self._inner, self._on, self._name = inner, on_outage, name

    async def get_many(self, keys: Sequence[int]) -> dict[int, V]:
        empty: dict[int, V] = {}
        return await _or(empty, self._inner.get_many(keys), self._name, self._on)

    async def set_many(self, items: Mapping[int, V]) -> None:
        await _or(None, self._inner.set_many(items), self._name, self._on)

    async def delete_many(self, keys: Sequence[int]) -> None:
        # A post's view is purged again by its PostDeleted event, which waits in the
        # outbox until Redis is back; a stale profile view only shows old counts.
        await _or(None, self._inner.delete_many(keys), self._name, self._on)


class DegradedRecordCache:
    """Reads miss (the durable store answers); fills are skipped. Invalidations and
    appends raise Unavailable instead: the write they follow is committed, but must not
    be reported done while Redis may come back holding the record it made stale. The
    client's retry (every write is idempotent) invalidates again."""

    def __init__(self, inner: RecordCache, on_outage: OnOutage, name: str) -> None:
        self._inner, self._on, self._name = inner, on_outage, name

    async def get_many(self, keys: Sequence[str]) -> list[tuple[bytes | None, int]]:
        missing: list[tuple[bytes | None, int]] = [(None, 0)] * len(keys)
        return await _or(missing, self._inner.get_many(keys), self._name, self._on)

    async def put(self, key: str, value: bytes, generation: int) -> None:
        await _or(None, self._inner.put(key, value, generation), self._name, self._on)

    async def append_if_present(self, key: str, data: bytes) -> None:
        await self._must(self._inner.append_if_present(key, data))

    async def invalidate(self, keys: Sequence[str]) -> None:
        await self._must(self._inner.invalidate(keys))

    async def _must(self, call: Awaitable[None]) -> None:
        try:
            await call
        except OUTAGE as error:
            self._on(self._name)
            raise Unavailable(
                f"the cache is unreachable ({type(error).__name__}); the change is saved, "
                "retry the request to finish it"
            ) from error


class DegradedCounterStore:
    def __init__(self, inner: CounterStore, on_outage: OnOutage) -> None:
        self._inner, self._on = inner, on_outage

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        empty: dict[int, Counts] = {}
        return await _or(empty, self._inner.get_many(post_ids), "counters", self._on)

    async def set_many(self, counts: Mapping[int, Counts]) -> None:
        await _or(None, self._inner.set_many(counts), "counters", self._on)

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        call = self._inner.increment_if_present(deltas, sharded)
        await _or(None, call, "counters", self._on)

    async def demote(self, post_ids: Sequence[int]) -> None:
        await _or(None, self._inner.demote(post_ids), "counters", self._on)

    async def take_touched(self, limit: int) -> list[int]:
        return await _or([], self._inner.take_touched(limit), "counters", self._on)


class DegradedFeedSessionStore:
    """A ranked session that cannot be stored or found reads as expired (410): the
    client reloads the top, which still works."""

    def __init__(self, inner: FeedSessionStore, on_outage: OnOutage) -> None:
        self._inner, self._on = inner, on_outage

    async def save(self, session_id: str, post_ids: Sequence[int], ttl_s: int) -> None:
        await _or(None, self._inner.save(session_id, post_ids, ttl_s), "sessions", self._on)

    async def load(self, session_id: str) -> list[int] | None:
        return await _or(None, self._inner.load(session_id), "sessions", self._on)


class DegradedRateLimiter:
    """Never fails open: while Redis is away each process limits on its own (so N API
    processes admit at most N times a limit), and Redis takes over again when back."""

    def __init__(self, inner: RateLimiter, fallback: RateLimiter, on_outage: OnOutage) -> None:
        self._inner, self._fallback, self._on = inner, fallback, on_outage

    async def hit(self, rule: RateRule, key: str, once: str | None = None) -> RateDecision:
        try:
            return await self._inner.hit(rule, key, once)
        except OUTAGE as error:
            log.warning("rate_limiter unavailable (%s): per process", type(error).__name__)
            self._on("rate_limiter")
            return await self._fallback.hit(rule, key, once)

    async def hit_many(self, hits: Sequence[tuple[RateRule, str]]) -> list[bool]:
        try:
            return await self._inner.hit_many(hits)
        except OUTAGE as error:
            log.warning("rate_limiter unavailable (%s): per process", type(error).__name__)
            self._on("rate_limiter")
            return await self._fallback.hit_many(hits)


class DegradedViewerSketches:
    """Views are not counted while Redis is away; the page shows none."""

    def __init__(self, inner: ViewerSketches, on_outage: OnOutage) -> None:
        self._inner, self._on = inner, on_outage

    async def served(self, viewer_id: int, post_ids: Sequence[int]) -> dict[int, int]:
        call = self._inner.served(viewer_id, post_ids)
        return await _or({}, call, "viewer_sketches", self._on)


class DegradedTrendingStore:
    def __init__(self, inner: TrendingStore, on_outage: OnOutage) -> None:
        self._inner, self._on = inner, on_outage

    async def add(self, weights: Mapping[int, float], at: datetime) -> None:
        await _or(None, self._inner.add(weights, at), "trending", self._on)

    async def top(self, window_s: int, at: datetime, limit: int) -> list[tuple[int, float]]:
        return await _or([], self._inner.top(window_s, at, limit), "trending", self._on)


class DegradedHourlyTallies:
    def __init__(self, inner: HourlyTallies, on_outage: OnOutage) -> None:
        self._inner, self._on = inner, on_outage

    async def add(self, kind: str, counts: Mapping[int, int], hour: int) -> None:
        await _or(None, self._inner.add(kind, counts, hour), "hourly", self._on)

    async def busiest(self, kind: str, hour: int, limit: int) -> list[tuple[int, int]]:
        return await _or([], self._inner.busiest(kind, hour, limit), "hourly", self._on)

    async def history(
        self, kind: str, account_ids: Sequence[int], hours: Sequence[int]
    ) -> dict[int, list[int]]:
        call = self._inner.history(kind, account_ids, hours)
        return await _or({}, call, "hourly", self._on)


def degraded(caches: CachePorts, on_outage: OnOutage, fallback: RateLimiter) -> CachePorts:
    """The same cache ports, tolerant of a Redis outage (the queue is not: the outbox
    keeps events until it can publish them); `fallback` limits rates meanwhile."""
    return CachePorts(
        timelines=DegradedTimelineStore(caches.timelines, on_outage),
        author_timelines=DegradedAuthorTimelineStore(caches.author_timelines, on_outage),
        tag_timelines=DegradedAuthorTimelineStore(caches.tag_timelines, on_outage, "tag_timelines"),
        post_cache=DegradedViewCache(caches.post_cache, on_outage, "post_cache"),
        user_cache=DegradedViewCache(caches.user_cache, on_outage, "user_cache"),
        counters=DegradedCounterStore(caches.counters, on_outage),
        sessions=DegradedFeedSessionStore(caches.sessions, on_outage),
        rate_limiter=DegradedRateLimiter(caches.rate_limiter, fallback, on_outage),
        viewers=DegradedRecordCache(caches.viewers, on_outage, "viewers"),
        tokens=DegradedRecordCache(caches.tokens, on_outage, "tokens"),
        likes=DegradedRecordCache(caches.likes, on_outage, "likes"),
        notifications=DegradedRecordCache(caches.notifications, on_outage, "notifications"),
        notices=caches.notices,  # best effort already: lookups/notices.py
        viewer_sketches=DegradedViewerSketches(caches.viewer_sketches, on_outage),
        trending=DegradedTrendingStore(caches.trending, on_outage),
        tag_trending=DegradedTrendingStore(caches.tag_trending, on_outage),
        hourly=DegradedHourlyTallies(caches.hourly, on_outage),
    )
