"""Composition root: the one place that picks adapters and wires them together.

SQLite + in-process caches and queue by default; PostgreSQL when FEEDLOOM_DATABASE_URL
names it; Redis for timelines, caches and the event log when FEEDLOOM_REDIS_URL is set.
Nothing connects at import time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TypedDict

from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.memory.caches import (
    MemoryCounterStore,
    MemoryFeedSessionStore,
    MemoryRateLimiter,
    MemoryViewCache,
)
from feedloom.adapters.memory.event_queue import MemoryEventQueue
from feedloom.adapters.memory.timeline_store import MemoryAuthorTimelineStore, MemoryTimelineStore
from feedloom.adapters.redis import redis_caches
from feedloom.adapters.redis.degraded import degraded
from feedloom.adapters.sql.accounts import SqlAccounts
from feedloom.adapters.sql.affinity import SqlAffinityStore
from feedloom.adapters.sql.bulk_import import SqlBulkImport
from feedloom.adapters.sql.database import check_migrated, create_database, migrate
from feedloom.adapters.sql.engagement import SqlEngagement
from feedloom.adapters.sql.graph import SqlSocialGraph
from feedloom.adapters.sql.outbox import SqlOutbox
from feedloom.adapters.sql.posts import SqlPosts
from feedloom.backend import Backend
from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.ids import IdGenerator
from feedloom.metrics import Metrics
from feedloom.ports import (
    AuthorTimelineStore,
    Clock,
    CounterStore,
    EventQueue,
    FeedSessionStore,
    RateLimiter,
    TimelineStore,
    ViewCache,
)
from feedloom.read.feature_log import FeatureLog
from feedloom.settings import Settings


def utc_now() -> datetime:
    return datetime.now(UTC)


def fanout_policy(settings: Settings) -> FanoutPolicy:
    fanout = settings.fanout
    return FanoutPolicy(
        pull_above=fanout.pull_above,
        push_below=fanout.push_below,
        bulk_above=fanout.bulk_above,
        max_pulled_per_read=fanout.max_pulled_per_read,
    )


async def build_backend(settings: Settings, clock: Clock = utc_now) -> Backend:
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = create_database(url, schema=settings.database_schema)
    if engine.dialect.name == "sqlite":
        await migrate(engine)  # a single-file database: migrating on start is the friendly default
    else:
        try:
            await check_migrated(engine)
        except BaseException:
            await engine.dispose()
            raise
    metrics = Metrics()
    caches, close_caches = await _caches(settings, clock, engine)
    if close_caches is not None:  # Redis: an outage degrades the feed instead of failing it
        caches = degraded(caches, lambda port: metrics.cache_outages.labels(port).inc())
    backend = Backend(
        settings=settings,
        clock=clock,
        ids=IdGenerator(settings.worker_id),
        metrics=metrics,
        policy=fanout_policy(settings),
        accounts=SqlAccounts(engine),
        posts=SqlPosts(engine),
        graph=SqlSocialGraph(engine),
        engagement=SqlEngagement(engine),
        outbox=SqlOutbox(engine),
        bulk=SqlBulkImport(engine),
        affinities=SqlAffinityStore(engine),
        **caches,
    )
    backend.closers.append(engine.dispose)
    if close_caches is not None:
        backend.closers.append(close_caches)
    if settings.feed.feature_log_path is not None:
        backend.feature_log = FeatureLog(settings.feed.feature_log_path)
        backend.closers.append(backend.feature_log.close)  # closers run last-in first
    return backend


class CachePorts(TypedDict):
    """Everything that may be lost and rebuilt: in-process or Redis."""

    timelines: TimelineStore
    author_timelines: AuthorTimelineStore
    post_cache: ViewCache
    user_cache: ViewCache
    counters: CounterStore
    sessions: FeedSessionStore
    rate_limiter: RateLimiter
    queue: EventQueue


async def _caches(
    settings: Settings, clock: Clock, engine: AsyncEngine
) -> tuple[CachePorts, Callable[[], Awaitable[None]] | None]:
    if settings.redis_url is None:
        return _memory_caches(settings, clock), None
    try:
        return await redis_caches(settings)
    except BaseException:
        await engine.dispose()
        raise


def _memory_caches(settings: Settings, clock: Clock) -> CachePorts:
    ttl = timedelta(days=settings.inactive_after_days)
    return CachePorts(
        timelines=MemoryTimelineStore(clock, settings.timeline_length, ttl),
        author_timelines=MemoryAuthorTimelineStore(settings.author_timeline_length),
        post_cache=MemoryViewCache(),
        user_cache=MemoryViewCache(),
        counters=MemoryCounterStore(),
        sessions=MemoryFeedSessionStore(),
        rate_limiter=MemoryRateLimiter(),
        queue=MemoryEventQueue(),
    )
