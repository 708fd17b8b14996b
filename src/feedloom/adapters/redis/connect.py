"""Connect to Redis (one server or a cluster) and build every cache port on it.

A cluster is chosen by the URL scheme `redis+cluster://host:port` (or
`rediss+cluster://`), or by FEEDLOOM_REDIS_CLUSTER=true; any one reachable node is
enough, the client discovers the rest. An unreachable server fails at start with a
clear message, never at the first request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from redis.asyncio import Redis, RedisCluster
from redis.exceptions import RedisError

from feedloom.adapters.redis.caches import (
    RedisCounterStore,
    RedisFeedSessionStore,
    RedisRateLimiter,
    RedisViewCache,
)
from feedloom.adapters.redis.event_queue import RedisEventQueue
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.scripts import RedisClient
from feedloom.adapters.redis.timeline_store import RedisAuthorTimelineStore, RedisTimelineStore
from feedloom.settings import Settings

if TYPE_CHECKING:
    from feedloom.bootstrap import CachePorts

Close = Callable[[], Awaitable[None]]
CONNECT_TIMEOUT_S = 5.0
CLUSTER_SUFFIX = "+cluster"


class RedisUnavailable(RuntimeError):
    """Redis did not answer at start-up."""


def parse_redis_url(url: str, cluster: bool = False) -> tuple[str, bool]:
    """The plain URL redis-py understands, and whether it names a cluster."""
    parts = urlsplit(url)
    if parts.scheme.endswith(CLUSTER_SUFFIX):
        parts = parts._replace(scheme=parts.scheme.removesuffix(CLUSTER_SUFFIX))
        cluster = True
    return urlunsplit(parts), cluster


def redacted(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(parts.password, "***", 1)))


async def open_client(url: str, cluster: bool = False) -> RedisClient:
    plain, is_cluster = parse_redis_url(url, cluster)
    client: RedisClient = (
        RedisCluster.from_url(plain, socket_connect_timeout=CONNECT_TIMEOUT_S)
        if is_cluster
        else Redis.from_url(plain, socket_connect_timeout=CONNECT_TIMEOUT_S)
    )
    try:
        await client.ping()
    except (RedisError, OSError) as error:
        await client.aclose()
        kind = "Redis Cluster" if is_cluster else "Redis"
        raise RedisUnavailable(
            f"{kind} at {redacted(url)} is unreachable ({type(error).__name__}: {error}); "
            "start it or unset FEEDLOOM_REDIS_URL to use the in-process caches"
        ) from error
    return client


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
        "queue": RedisEventQueue(client, keys),
    }
    return caches, client.aclose
