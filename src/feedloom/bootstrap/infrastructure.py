"""Adapters for one process: the durable stores on one engine, the caches and the event
queue in-process or on Redis. Every open resource is registered on the caller's exit
stack."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

from redis.exceptions import RedisError
from sqlalchemy.exc import InterfaceError, OperationalError

from feedloom.adapters.files.object_store import LocalObjectStore
from feedloom.adapters.http.outbound import HttpxOutbound
from feedloom.adapters.memory.caches import (
    MemoryCounterStore,
    MemoryFeedSessionStore,
    MemoryRecordCache,
    MemoryViewCache,
)
from feedloom.adapters.memory.event_queue import MemoryEventQueue
from feedloom.adapters.memory.notices import MemoryNoticeBus
from feedloom.adapters.memory.rate_limiter import memory_rate_limiter
from feedloom.adapters.memory.sketches import (
    MemoryHourlyTallies,
    MemoryTrendingStore,
    MemoryViewerSketches,
)
from feedloom.adapters.memory.timeline_store import MemoryAuthorTimelineStore, MemoryTimelineStore
from feedloom.adapters.redis import (
    RedisConfig,
    RedisConnection,
    RedisMemos,
    open_redis,
    redis_caches,
    redis_event_queue,
)
from feedloom.adapters.s3.config import S3Config
from feedloom.adapters.sql.accounts import SqlAccounts
from feedloom.adapters.sql.affinity import SqlAffinityStore
from feedloom.adapters.sql.apps import SqlApps
from feedloom.adapters.sql.bulk_import import SqlBulkImport
from feedloom.adapters.sql.database import check_migrated, create_database, migrate
from feedloom.adapters.sql.dead_letters import SqlDeadLetters
from feedloom.adapters.sql.edits import SqlPostEdits
from feedloom.adapters.sql.engagement import SqlEngagement
from feedloom.adapters.sql.erasure import SqlAccountEraser
from feedloom.adapters.sql.feeds import SqlFeeds
from feedloom.adapters.sql.graph import SqlSocialGraph
from feedloom.adapters.sql.known_clients import SqlKnownClients
from feedloom.adapters.sql.leases import SqlWorkerLeases
from feedloom.adapters.sql.markers import SqlMarkers
from feedloom.adapters.sql.media_sizes import SqlMediaSizes
from feedloom.adapters.sql.moderation import SqlModeration
from feedloom.adapters.sql.notifications import SqlNotifications
from feedloom.adapters.sql.oauth import SqlOAuth
from feedloom.adapters.sql.outages import OUTAGE_TYPES, is_outage
from feedloom.adapters.sql.outbox import SqlOutbox
from feedloom.adapters.sql.people import SqlPeople
from feedloom.adapters.sql.posts import SqlPosts
from feedloom.adapters.sql.reposts import SqlReposts
from feedloom.adapters.sql.search import SqlSearch
from feedloom.adapters.sql.suggestions import SqlSuggestions
from feedloom.adapters.sql.tags import SqlTags
from feedloom.adapters.sql.threads import SqlThreads
from feedloom.adapters.sql.webhooks import SqlWebhooks
from feedloom.domain.trending import WINDOWS
from feedloom.metrics import Metrics
from feedloom.ports import (
    ActivityLog,
    CachePorts,
    Clock,
    DirectUploads,
    DurableStores,
    EventQueue,
    ObjectStore,
    SignedReads,
)
from feedloom.settings import Settings

log = logging.getLogger(__name__)


async def durable_stores(settings: Settings, stack: contextlib.AsyncExitStack) -> DurableStores:
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = create_database(url, settings.database_schema, settings.database_wait_s)
    stack.push_async_callback(engine.dispose)
    if engine.dialect.name == "sqlite":
        await migrate(engine)  # a single-file database: migrating on start is the friendly default
    else:
        await check_migrated(engine)
    accounts, posts, graph = SqlAccounts(engine), SqlPosts(engine), SqlSocialGraph(engine)
    media_sizes, tags = SqlMediaSizes(engine), SqlTags(engine)
    feeds = SqlFeeds(engine)
    apps = SqlApps(engine)
    objects, direct_uploads, signed_reads = await object_store(settings, stack)
    return DurableStores(
        accounts=accounts,
        account_admin=accounts,
        eraser=SqlAccountEraser(engine),
        tokens=accounts,
        known_clients=SqlKnownClients(engine),
        activity=BestEffortActivity(accounts),
        profiles=accounts,
        profile_editor=accounts,
        fanout_modes=accounts,
        preferences=accounts,
        posts=posts,
        archive=posts,
        media=posts,
        media_sweep=posts,
        media_sizes=media_sizes,
        upload_receipts=media_sizes,
        objects=objects,
        idempotency=posts,
        relations=graph,
        graph=graph,
        followers=graph,
        people=SqlPeople(engine),
        edits=SqlPostEdits(engine),
        search=SqlSearch(engine),
        suggestions=SqlSuggestions(engine),
        engagement=SqlEngagement(engine),
        threads=SqlThreads(engine),
        reposts=SqlReposts(engine),
        affinities=SqlAffinityStore(engine),
        outbox=SqlOutbox(engine),
        notifications=SqlNotifications(engine),
        markers=SqlMarkers(engine),
        dead_letters=SqlDeadLetters(engine),
        worker_leases=SqlWorkerLeases(engine),
        bulk=SqlBulkImport(engine),
        moderation=SqlModeration(engine),
        mention_resolver=tags,
        mentions=tags,
        tags=tags,
        oauth=SqlOAuth(engine),
        lists=feeds,
        saved_feeds=feeds,
        generators=feeds,
        muted_words=feeds,
        reader_choices=feeds,
        apps=apps,
        app_users=apps,
        webhooks=SqlWebhooks(engine),
        direct_uploads=direct_uploads,
        signed_reads=signed_reads,
    )


async def object_store(
    settings: Settings, stack: contextlib.AsyncExitStack
) -> tuple[ObjectStore, DirectUploads | None, SignedReads | None]:
    """Image bytes: the data dir's media directory, or a bucket every machine shares.
    The S3 client is imported only when configured: the embedded default never loads it."""
    if settings.media.store == "files":
        return LocalObjectStore(settings.data_dir / "media"), None, None
    from feedloom.adapters.s3.object_store import s3_object_store

    bucket = await stack.enter_async_context(s3_object_store(s3_config(settings)))
    return bucket, bucket, bucket


def s3_config(settings: Settings) -> S3Config:
    media = settings.media
    if media.s3_bucket is None:
        raise ValueError("no FEEDLOOM_MEDIA__S3_BUCKET set")
    key, secret = media.s3_access_key_id, media.s3_secret_access_key
    return S3Config(
        bucket=media.s3_bucket,
        endpoint_url=media.s3_endpoint_url,
        public_endpoint_url=media.s3_public_endpoint_url,
        region=media.s3_region,
        access_key_id=key.get_secret_value() if key else None,
        secret_access_key=secret.get_secret_value() if secret else None,
        path_style=media.s3_path_style,
    )


class BestEffortActivity:
    """Marking a user active is a hint (it keeps a reader's timeline from expiring),
    written at most hourly per user per process on whatever request comes first: a
    warm feed read, which needs no SQL otherwise, must not answer 503 for it while the
    database is away. Only an outage is let pass; any other error still raises."""

    def __init__(self, inner: ActivityLog) -> None:
        self._inner = inner

    async def mark_active(self, user_id: int, now: datetime) -> None:
        try:
            await self._inner.mark_active(user_id, now)
        except OUTAGE_TYPES as error:
            if not is_outage(error):
                raise
            log.warning("activity of user %d not recorded: the database is unavailable", user_id)


def is_transient(error: BaseException) -> bool:
    """A failure of the infrastructure (Redis or the database away, a timeout), not of
    the event being handled: retried later, never a reason to dead-letter the event."""
    return isinstance(
        error, (OSError, TimeoutError, RedisError, OperationalError, InterfaceError)
    ) or is_outage(error)


def redis_config(settings: Settings) -> RedisConfig:
    if settings.redis_url is None:
        raise ValueError("no FEEDLOOM_REDIS_URL set")
    memo = settings.memo
    return RedisConfig(
        url=settings.redis_url,
        cluster=settings.redis_cluster,
        prefix=settings.redis_prefix,
        timeline_length=settings.timeline_length,
        author_timeline_length=settings.author_timeline_length,
        inactive_after=timedelta(days=settings.inactive_after_days),
        reclaim_idle_s=settings.reclaim_idle_s,
        reclaim_heartbeat_s=settings.reclaim_heartbeat_s,
        counter_shards=settings.counter_shards,
        timeline_buckets=settings.redis_timeline_buckets,
        near_cache=settings.redis_near_cache,
        memo=RedisMemos(
            near_views=memo.near_views,
            near_record_bytes=memo.near_records_mib * 2**20,
            decoded_views=memo.decoded_views,
            timeline_names=memo.timeline_names,
            cluster_slots=memo.cluster_slots,
            counted_viewers=memo.counted_viewers,
        ),
    )


RequestScope = Callable[[], contextlib.AbstractContextManager[None]]


async def redis_connection(
    settings: Settings, metrics: Metrics, stack: contextlib.AsyncExitStack
) -> RedisConnection | None:
    """The process' Redis, if one is configured."""
    if settings.redis_url is None:
        return None
    redis = await open_redis(
        redis_config(settings), lambda reason: metrics.near_cache_resets.labels(reason).inc()
    )
    stack.push_async_callback(redis.close)
    return redis


async def cache_ports(
    settings: Settings,
    clock: Clock,
    metrics: Metrics,
    redis: RedisConnection | None,
    stack: contextlib.AsyncExitStack,
) -> CachePorts:
    if redis is None:
        return memory_caches(settings, clock)
    ports, close = await redis_caches(redis, lambda port: metrics.cache_outages.labels(port).inc())
    stack.push_async_callback(close)
    return ports


def event_queue(redis: RedisConnection | None) -> EventQueue:
    """Where the relay puts events for the fan-out workers: one line per backend."""
    if redis is None:
        return MemoryEventQueue()
    return redis_event_queue(redis)


def request_scope(redis: RedisConnection | None) -> RequestScope:
    """What an entry point opens around each request it serves: Redis' near cache
    makes sure there, once, that it shows every write completed before it began."""
    if redis is None or redis.near is None:
        return _no_scope
    return redis.near.read  # values kept near are trusted once the request's fence is in


@contextlib.contextmanager
def _no_scope() -> Iterator[None]:
    yield


def memory_caches(settings: Settings, clock: Clock) -> CachePorts:
    ttl = timedelta(days=settings.inactive_after_days)
    return CachePorts(
        timelines=MemoryTimelineStore(clock, settings.timeline_length, ttl),
        author_timelines=MemoryAuthorTimelineStore(settings.author_timeline_length),
        tag_timelines=MemoryAuthorTimelineStore(settings.author_timeline_length),
        post_cache=MemoryViewCache(),
        user_cache=MemoryViewCache(),
        counters=MemoryCounterStore(),
        sessions=MemoryFeedSessionStore(),
        rate_limiter=memory_rate_limiter(),
        viewers=MemoryRecordCache(),
        tokens=MemoryRecordCache(),
        likes=MemoryRecordCache(),
        notifications=MemoryRecordCache(),
        notices=MemoryNoticeBus(),
        viewer_sketches=MemoryViewerSketches(),
        trending=MemoryTrendingStore(tuple(WINDOWS.values())),
        tag_trending=MemoryTrendingStore(tuple(WINDOWS.values())),
        hourly=MemoryHourlyTallies(),
    )


def generator_client(settings: Settings, stack: contextlib.AsyncExitStack) -> HttpxOutbound:
    """The SSRF-checked client feed generators are called with (its own caps and
    allow-loopback switch; webhooks get another)."""
    generators = settings.generators
    client = HttpxOutbound(
        allow_loopback=generators.allow_loopback,
        max_bytes=generators.max_bytes,
        timeout_s=generators.timeout_s,
    )
    stack.push_async_callback(client.aclose)
    return client


def webhook_client(settings: Settings, stack: contextlib.AsyncExitStack) -> HttpxOutbound:
    """The SSRF-checked client webhooks are delivered with (FEEDLOOM_WEBHOOKS__…)."""
    hooks = settings.webhooks
    client = HttpxOutbound(
        allow_loopback=hooks.allow_loopback,
        max_bytes=hooks.max_bytes,
        timeout_s=hooks.timeout_s,
        max_connections=hooks.concurrency,
    )
    stack.push_async_callback(client.aclose)
    return client
