"""Build every cache port on one Redis connection (a server or a cluster, client.py).

An unreachable server fails here, at start, with a clear message (RedisUnavailable),
never at the first request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from redis.asyncio import Redis
from redis.asyncio.connection import SSLConnection
from redis.exceptions import RedisError

from feedloom.adapters.memory.caches import NothingNear
from feedloom.adapters.memory.rate_limiter import memory_rate_limiter
from feedloom.adapters.redis.caches import (
    NEAR_RECORDS,
    RedisCounterStore,
    RedisFeedSessionStore,
    RedisRecordCache,
    RedisViewCache,
)
from feedloom.adapters.redis.client import (
    RedisUnavailable,
    open_client,
    parse_redis_url,
    redacted,
)
from feedloom.adapters.redis.degraded import OnOutage, degraded
from feedloom.adapters.redis.event_queue import RedisEventQueue
from feedloom.adapters.redis.keys import TIMELINE_BUCKETS, RedisKeys
from feedloom.adapters.redis.multiplexed import Address
from feedloom.adapters.redis.near_cache import NearCache
from feedloom.adapters.redis.notices import RedisNoticeBus
from feedloom.adapters.redis.rate_limiter import redis_rate_limiter
from feedloom.adapters.redis.scripts import RedisClient, is_cluster
from feedloom.adapters.redis.sketches import (
    RedisHourlyTallies,
    RedisTrendingStore,
    RedisViewerSketches,
)
from feedloom.adapters.redis.timeline_store import RedisAuthorTimelineStore, RedisTimelineStore
from feedloom.adapters.redis.views import POSTS, PROFILES
from feedloom.domain.trending import WINDOWS
from feedloom.ports import CachePorts

Close = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class RedisConfig:
    url: str
    cluster: bool
    prefix: str
    timeline_length: int
    author_timeline_length: int
    inactive_after: timedelta
    reclaim_idle_s: float
    reclaim_heartbeat_s: float = 1.0
    counter_shards: int = 16
    timeline_buckets: int = TIMELINE_BUCKETS
    near_cache: bool = True


class TimelineBucketsDiffer(RedisUnavailable):
    """Redis answers, but its timelines are keyed for another bucket count."""


async def redis_caches(
    config: RedisConfig,
    on_outage: OnOutage,
    on_near_reset: Callable[[str], None] = lambda _reason: None,
) -> tuple[CachePorts, Close]:
    """Every cache port on one Redis connection pool, and how to close it. The ports
    come wrapped for degraded mode: an outage slows the feed instead of failing it."""
    client = await open_client(config.url, config.cluster)
    keys = RedisKeys(config.prefix, config.timeline_buckets)
    try:
        await _agree_on_timeline_buckets(client, keys, config.url)
    except BaseException:
        await client.aclose()
        raise
    near = _near_cache(client, config, on_near_reset)
    post_near = near.region(keys.kind_prefix("post")) if near else None
    user_near = near.region(keys.kind_prefix("user")) if near else None
    counts_near = near.region(keys.counter_prefix()) if near else None
    likes_near = near.region(keys.kind_prefix("lk"), NEAR_RECORDS) if near else None
    viewers_near = near.region(keys.viewers_prefix()) if near else None
    if near is not None:
        await near.start()
    # Its own connection: a subscribed connection can do nothing else.
    notices = RedisNoticeBus(Redis.from_url(parse_redis_url(config.url)[0]), config.prefix)
    rate_limiter, close_rate_limiter = redis_rate_limiter(client, keys, config.url, config.cluster)
    caches = CachePorts(
        timelines=RedisTimelineStore(client, keys, config.timeline_length, config.inactive_after),
        author_timelines=RedisAuthorTimelineStore(
            client, keys, config.author_timeline_length, config.inactive_after
        ),
        post_cache=RedisViewCache(client, keys, "post", POSTS, near=post_near),
        user_cache=RedisViewCache(client, keys, "user", PROFILES, near=user_near),
        counters=RedisCounterStore(client, keys, shards=config.counter_shards, near=counts_near),
        sessions=RedisFeedSessionStore(client, keys),
        rate_limiter=rate_limiter,
        queue=RedisEventQueue(
            client,
            keys,
            claim_idle_ms=int(config.reclaim_idle_s * 1000),
            claim_every_s=config.reclaim_heartbeat_s,
            heartbeat_s=config.reclaim_heartbeat_s,
        ),
        viewers=RedisRecordCache(client, keys, "rv"),
        tokens=RedisRecordCache(client, keys, "tk"),
        likes=RedisRecordCache(client, keys, "lk", near=likes_near),
        notices=notices,
        viewer_sketches=RedisViewerSketches(client, keys, near=viewers_near),
        trending=RedisTrendingStore(client, keys, tuple(WINDOWS.values())),
        hourly=RedisHourlyTallies(client, keys),
        freshness=near or NothingNear(),
    )

    async def close() -> None:
        if near is not None:
            await near.close()
        await notices.aclose()
        await close_rate_limiter()
        await client.aclose()

    return degraded(caches, on_outage, memory_rate_limiter()), close


def _near_cache(
    client: RedisClient, config: RedisConfig, on_reset: Callable[[str], None]
) -> NearCache | None:
    """Post and profile views kept in process (near_cache.py): on one server over
    plain TCP or a Unix socket; a cluster tracks per node, which this does not do."""
    if not config.near_cache or is_cluster(client):
        return None
    pool = client.connection_pool  # type: ignore[union-attr]  # not a cluster, checked above
    if issubclass(pool.connection_class, SSLConnection):
        return None
    return NearCache(Address.of(pool.connection_kwargs), on_reset)


async def _agree_on_timeline_buckets(client: RedisClient, keys: RedisKeys, url: str) -> None:
    """The bucket count is part of every timeline key: a process with another count
    would read and write other keys, and its readers would miss what the others fan
    out. The first process to start records its count; every other must match it."""
    name, buckets = keys.timeline_layout(), keys.timeline_buckets
    try:
        await client.set(name, buckets, nx=True)
        recorded = int(await client.get(name) or buckets)
    except (RedisError, OSError) as error:
        raise RedisUnavailable(
            f"Redis at {redacted(url)} stopped answering at start ({type(error).__name__})"
        ) from error
    if recorded != buckets:
        raise TimelineBucketsDiffer(
            f"Redis at {redacted(url)} holds timelines keyed for {recorded} buckets and "
            f"this process is set to {buckets} (FEEDLOOM_REDIS_TIMELINE_BUCKETS): every "
            f"process of a deployment needs the same count. To change it, stop every "
            f"feedloom process, delete the key {name} (the old timelines expire; readers "
            "rebuild theirs), and start them all with the new count"
        )
