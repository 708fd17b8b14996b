"""One process' Redis: the connection (a server or a cluster, wire/), then the cache
ports and the event queue built on it.

An unreachable server fails here, at start, with a clear message (RedisUnavailable),
never at the first request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import SSLConnection
from redis.exceptions import RedisError

from feedloom.adapters.memory.rate_limiter import memory_rate_limiter
from feedloom.adapters.redis.caches import (
    DECODED_VIEWS,
    RedisCounterStore,
    RedisFeedSessionStore,
    RedisRecordCache,
    RedisViewCache,
    near_record_size,
)
from feedloom.adapters.redis.degraded import OnOutage, degraded
from feedloom.adapters.redis.event_queue import RedisEventQueue
from feedloom.adapters.redis.keys import TIMELINE_BUCKETS, RedisKeys
from feedloom.adapters.redis.notices import RedisNoticeBus
from feedloom.adapters.redis.rate_limiter import redis_rate_limiter
from feedloom.adapters.redis.sketches import (
    COUNTED_KEPT,
    RedisHourlyTallies,
    RedisTrendingStore,
    RedisViewerSketches,
)
from feedloom.adapters.redis.timeline_store import (
    KNOWN_NAMES,
    RedisAuthorTimelineStore,
    RedisTimelineStore,
)
from feedloom.adapters.redis.views import POSTS, PROFILES
from feedloom.adapters.redis.wire import (
    KEPT_VIEWS,
    KNOWN_SLOTS,
    Address,
    NearCache,
    NearRegion,
    RedisClient,
    RedisUnavailable,
    is_cluster,
    open_client,
    parse_redis_url,
    redacted,
)
from feedloom.domain.trending import WINDOWS
from feedloom.ports import CachePorts

Close = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class RedisMemos:
    """How much each of the Redis adapters' per-process memos may keep."""

    near_views: int = KEPT_VIEWS  # per kind: posts, profiles, counts, viewer estimates
    near_record_bytes: int = 32 * 2**20  # per kind: reader and likes records
    decoded_views: int = DECODED_VIEWS  # per kind: posts, profiles
    timeline_names: int = KNOWN_NAMES  # per kind: home and author timelines
    cluster_slots: int = KNOWN_SLOTS
    counted_viewers: int = COUNTED_KEPT


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
    memo: RedisMemos = RedisMemos()


class TimelineBucketsDiffer(RedisUnavailable):
    """Redis answers, but its timelines are keyed for another bucket count."""


@dataclass(frozen=True, slots=True)
class RedisConnection:
    """One process' client, its key names and its near cache (None where it is off)."""

    config: RedisConfig
    client: RedisClient
    keys: RedisKeys
    near: NearCache | None

    async def close(self) -> None:
        if self.near is not None:
            await self.near.close()
        await self.client.aclose()


async def open_redis(
    config: RedisConfig, on_near_reset: Callable[[str], None] = lambda _reason: None
) -> RedisConnection:
    """The connection, checked (RedisUnavailable if unusable), its near cache started."""
    client = await open_client(config.url, config.cluster, config.memo.cluster_slots)
    keys = RedisKeys(config.prefix, config.timeline_buckets)
    try:
        await _agree_on_timeline_buckets(client, keys, config.url)
    except BaseException:
        await client.aclose()
        raise
    return RedisConnection(config, client, keys, _near_cache(client, config, on_near_reset))


async def redis_caches(redis: RedisConnection, on_outage: OnOutage) -> tuple[CachePorts, Close]:
    """Every cache port on the process' connection, and how to close what they opened
    of their own. The ports come wrapped for degraded mode: an outage slows the feed
    instead of failing it."""
    client, keys, config, near = redis.client, redis.keys, redis.config, redis.near
    memo = config.memo
    post_near = _region(near, memo, keys.kind_prefix("post"))
    user_near = _region(near, memo, keys.kind_prefix("user"))
    counts_near = _region(near, memo, keys.counter_prefix())
    likes_near = _record_region(near, memo, keys, "lk")
    readers_near = _record_region(near, memo, keys, "rv")
    viewers_near = _region(near, memo, keys.viewers_prefix())
    if near is not None:
        await near.start()
    # Its own connection: a subscribed connection can do nothing else.
    notices = RedisNoticeBus(Redis.from_url(parse_redis_url(config.url)[0]), config.prefix)
    rate_limiter, close_rate_limiter = redis_rate_limiter(client, keys, config.url, config.cluster)
    caches = CachePorts(
        timelines=RedisTimelineStore(
            client, keys, config.timeline_length, config.inactive_after, memo.timeline_names
        ),
        author_timelines=RedisAuthorTimelineStore(
            client, keys, config.author_timeline_length, config.inactive_after, memo.timeline_names
        ),
        tag_timelines=RedisAuthorTimelineStore(
            client,
            keys,
            config.author_timeline_length,
            config.inactive_after,
            memo.timeline_names,
            name=keys.tag_timeline,
        ),
        post_cache=RedisViewCache(
            client, keys, "post", POSTS, near=post_near, decoded=memo.decoded_views
        ),
        user_cache=RedisViewCache(
            client, keys, "user", PROFILES, near=user_near, decoded=memo.decoded_views
        ),
        counters=RedisCounterStore(client, keys, shards=config.counter_shards, near=counts_near),
        sessions=RedisFeedSessionStore(client, keys),
        rate_limiter=rate_limiter,
        viewers=RedisRecordCache(client, keys, "rv", near=readers_near),
        tokens=RedisRecordCache(client, keys, "tk"),
        likes=RedisRecordCache(client, keys, "lk", near=likes_near),
        notifications=RedisRecordCache(client, keys, "nt"),
        notices=notices,
        viewer_sketches=RedisViewerSketches(
            client, keys, near=viewers_near, counted=memo.counted_viewers
        ),
        trending=RedisTrendingStore(client, keys, tuple(WINDOWS.values())),
        tag_trending=RedisTrendingStore(client, keys, tuple(WINDOWS.values()), "tt"),
        hourly=RedisHourlyTallies(client, keys),
    )

    async def close() -> None:
        await notices.aclose()
        await close_rate_limiter()

    return degraded(caches, on_outage, memory_rate_limiter()), close


def redis_event_queue(redis: RedisConnection) -> RedisEventQueue:
    """Redis Streams on the process' connection. Not degraded: the outbox keeps events
    until the queue takes them."""
    config = redis.config
    return RedisEventQueue(
        redis.client,
        redis.keys,
        claim_idle_ms=int(config.reclaim_idle_s * 1000),
        claim_every_s=config.reclaim_heartbeat_s,
        heartbeat_s=config.reclaim_heartbeat_s,
    )


def _region(near: NearCache | None, memo: RedisMemos, prefix: str) -> NearRegion[Any] | None:
    return None if near is None else near.region(prefix, limit=memo.near_views)


def _record_region(
    near: NearCache | None, memo: RedisMemos, keys: RedisKeys, kind: str
) -> NearRegion[Any] | None:
    """Records of one kind kept near, by user ID, up to a budget of bytes."""
    if near is None:
        return None
    prefix = keys.generation_prefix(kind)
    return near.region(prefix, limit=memo.near_record_bytes, sizeof=near_record_size)


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


async def delete_all_keys(client: RedisClient, keys: RedisKeys) -> int:
    """Delete every key of one prefix, on every node (SCAN, never FLUSH: the server may
    be shared). For benchmarks, tests and "lose the cache" drills."""
    deleted = 0
    batch: list[bytes] = []
    async for key in client.scan_iter(match=keys.all_keys(), count=1_000):
        batch.append(key)
        if len(batch) >= 1_000:
            deleted += await _unlink(client, batch)
            batch = []
    return deleted + await _unlink(client, batch)


async def _unlink(client: RedisClient, batch: list[bytes]) -> int:
    pipe = client.pipeline(transaction=False)
    for key in batch:
        pipe.execute_command("UNLINK", key)  # one key per command: slots may differ
    return sum(await pipe.execute())
