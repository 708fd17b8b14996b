"""Build every cache port on one Redis connection (a server or a cluster, client.py).

An unreachable server fails here, at start, with a clear message (RedisUnavailable),
never at the first request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from feedloom.adapters.redis.caches import (
    RedisCounterStore,
    RedisFeedSessionStore,
    RedisRateLimiter,
    RedisViewCache,
)
from feedloom.adapters.redis.client import open_client
from feedloom.adapters.redis.event_queue import RedisEventQueue
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.timeline_store import RedisAuthorTimelineStore, RedisTimelineStore
from feedloom.settings import Settings

if TYPE_CHECKING:
    from feedloom.bootstrap import CachePorts

Close = Callable[[], Awaitable[None]]


async def redis_caches(settings: Settings) -> tuple[CachePorts, Close]:
    """Every cache port on one Redis connection pool, and how to close it."""
    if settings.redis_url is None:
        raise ValueError("redis_caches needs settings.redis_url")
    client = await open_client(settings.redis_url, settings.redis_cluster)
    keys = RedisKeys(settings.redis_prefix)
    inactive = timedelta(days=settings.inactive_after_days)
    caches: CachePorts = {
        "timelines": RedisTimelineStore(client, keys, settings.timeline_length, inactive),
        "author_timelines": RedisAuthorTimelineStore(
            client, keys, settings.author_timeline_length, inactive
        ),
        "post_cache": RedisViewCache(client, keys, "post"),
        "user_cache": RedisViewCache(client, keys, "user"),
        "counters": RedisCounterStore(client, keys),
        "sessions": RedisFeedSessionStore(client, keys),
        "rate_limiter": RedisRateLimiter(client, keys),
        "queue": RedisEventQueue(
            client,
            keys,
            claim_idle_ms=int(settings.reclaim_idle_s * 1000),
            claim_every_s=min(5.0, settings.reclaim_idle_s / 2),
        ),
    }
    return caches, client.aclose
