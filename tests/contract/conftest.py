"""Cache-port adapters for the contract suites: in-process and Redis, fresh for each test.

A suite asks for `caches` (run once per adapter kind) and builds the ports it tests
at the sizes it needs. The Redis kind gets a key prefix of its own whose keys are
deleted afterwards (SCAN on the prefix, never FLUSH); an unreachable Redis skips it
locally and fails it in CI. `caches.elapse` lets time pass: the in-process adapters
read an injected clock, Redis expires keys on its own clock, so there it sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from feedloom.adapters.memory.caches import (
    MemoryCounterStore,
    MemoryFeedSessionStore,
    MemoryRecordCache,
    MemoryViewCache,
)
from feedloom.adapters.memory.event_queue import MemoryEventQueue
from feedloom.adapters.memory.rate_limiter import memory_rate_limiter
from feedloom.adapters.memory.sketches import (
    MemoryHourlyTallies,
    MemoryTrendingStore,
    MemoryViewerSketches,
)
from feedloom.adapters.memory.timeline_store import MemoryAuthorTimelineStore, MemoryTimelineStore
from feedloom.adapters.redis.caches import (
    RAW,
    RedisCounterStore,
    RedisFeedSessionStore,
    RedisRecordCache,
    RedisViewCache,
)
from feedloom.adapters.redis.event_queue import RedisEventQueue
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.rate_limiter import redis_rate_limiter
from feedloom.adapters.redis.sketches import (
    RedisHourlyTallies,
    RedisTrendingStore,
    RedisViewerSketches,
)
from feedloom.adapters.redis.timeline_store import RedisAuthorTimelineStore, RedisTimelineStore
from feedloom.adapters.redis.views import POSTS
from feedloom.adapters.redis.wire import RedisClient, open_client
from feedloom.domain.model import Post
from feedloom.ports import (
    AuthorTimelineStore,
    CounterStore,
    EventQueue,
    FeedSessionStore,
    HourlyTallies,
    RateLimiter,
    RecordCache,
    TimelineStore,
    TrendingStore,
    ViewCache,
    ViewerSketches,
)
from tests.servers import REDIS_URL, scratch_redis_prefix

LONG = timedelta(days=30)


@dataclass
class FakeClock:
    now: datetime = field(default_factory=lambda: datetime(2026, 1, 1, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Caches:
    """Builds fresh cache ports of one adapter kind."""

    kind: str
    clock: FakeClock = field(default_factory=FakeClock)
    client: RedisClient | None = None
    keys: RedisKeys | None = None
    url: str = REDIS_URL  # a Redis Cluster's, in tests/integration/test_redis_cluster.py
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    def _redis(self) -> tuple[RedisClient, RedisKeys] | None:
        if self.client is None or self.keys is None:
            return None
        return self.client, self.keys

    def timelines(self, length: int = 50, ttl: timedelta = LONG) -> TimelineStore:
        if redis := self._redis():
            return RedisTimelineStore(*redis, length=length, ttl=ttl)
        return MemoryTimelineStore(self.clock, length, ttl)

    def author_timelines(self, length: int = 20) -> AuthorTimelineStore:
        if redis := self._redis():
            return RedisAuthorTimelineStore(*redis, length=length)
        return MemoryAuthorTimelineStore(length)

    def tag_timelines(self, length: int = 20) -> AuthorTimelineStore:
        """The same lists keyed by tag (`CachePorts.tag_timelines`)."""
        if redis := self._redis():
            client, keys = redis
            return RedisAuthorTimelineStore(client, keys, length=length, name=keys.tag_timeline)
        return MemoryAuthorTimelineStore(length)

    def view_cache(self, kind: str = "post") -> ViewCache[bytes]:
        if redis := self._redis():
            return RedisViewCache(*redis, kind, RAW)
        return MemoryViewCache()

    def post_views(self) -> ViewCache[Post]:
        if redis := self._redis():
            return RedisViewCache(*redis, "post", POSTS)
        return MemoryViewCache()

    def records(self) -> RecordCache:
        if redis := self._redis():
            return RedisRecordCache(*redis, "rc")
        return MemoryRecordCache()

    def counters(self) -> CounterStore:
        if redis := self._redis():
            return RedisCounterStore(*redis)
        return MemoryCounterStore()

    def sessions(self) -> FeedSessionStore:
        if redis := self._redis():
            return RedisFeedSessionStore(*redis)
        return MemoryFeedSessionStore()

    def viewer_sketches(self) -> ViewerSketches:
        if redis := self._redis():
            return RedisViewerSketches(*redis)
        return MemoryViewerSketches()

    def trending(self, windows_s: tuple[int, ...], kind: str = "tr") -> TrendingStore:
        if redis := self._redis():
            return RedisTrendingStore(*redis, windows_s, kind)
        return MemoryTrendingStore(windows_s)

    def hourly(self) -> HourlyTallies:
        if redis := self._redis():
            return RedisHourlyTallies(*redis)
        return MemoryHourlyTallies()

    def rate_limiter(self) -> RateLimiter:
        if redis := self._redis():
            limiter, close = redis_rate_limiter(*redis, self.url)
            self.closers.append(close)
            return limiter
        return memory_rate_limiter()

    def queue(self) -> EventQueue:
        if redis := self._redis():
            return RedisEventQueue(*redis)
        return MemoryEventQueue()

    async def elapse(self, seconds: float) -> None:
        self.clock.now += timedelta(seconds=seconds)
        if self.client is not None:
            await asyncio.sleep(seconds)


async def redis_client() -> RedisClient:
    return await open_client(REDIS_URL)


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def caches(request: pytest.FixtureRequest) -> AsyncIterator[Caches]:
    if request.param == "memory":
        yield Caches("memory")
        return
    async with scratch_redis_prefix() as prefix:
        client = await redis_client()
        caches = Caches("redis", client=client, keys=RedisKeys(prefix))
        try:
            yield caches
        finally:
            for close in caches.closers:
                await close()
            await client.aclose()


@pytest.fixture
async def redis_caches() -> AsyncIterator[Caches]:
    """The Redis kind alone, for what only a durable adapter promises."""
    async with scratch_redis_prefix() as prefix:
        client = await redis_client()
        caches = Caches("redis", client=client, keys=RedisKeys(prefix))
        try:
            yield caches
        finally:
            for close in caches.closers:
                await close()
            await client.aclose()
