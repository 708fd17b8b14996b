"""`open_feedloom`: one process's wiring and its lifecycle, in one exit stack."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from argon2 import PasswordHasher

from feedloom.bootstrap.apps import add_webhooks
from feedloom.bootstrap.infrastructure import (
    RequestScope,
    cache_ports,
    durable_stores,
    event_queue,
    generator_client,
    redis_connection,
    request_scope,
    webhook_client,
)
from feedloom.bootstrap.leases import leased_ids
from feedloom.bootstrap.runtime import Runtime, utc_now
from feedloom.bootstrap.secret_key import secret_key
from feedloom.bootstrap.services import Services, build_services
from feedloom.metrics import Metrics
from feedloom.ports import CachePorts, Clock, DurableStores, EventQueue
from feedloom.read.ranked.feature_log import FeatureLog
from feedloom.settings import Settings
from feedloom.write.passwords import Passwords

__all__ = ["Feedloom", "Runtime", "open_feedloom", "utc_now"]


@dataclass(frozen=True, slots=True)
class Feedloom:
    """Everything one process built. Entry points take the use case they call from
    `services`; operator tools and tests may look into the stores and caches."""

    settings: Settings
    stores: DurableStores
    caches: CachePorts
    queue: EventQueue
    runtime: Runtime
    services: Services
    password_hasher: PasswordHasher
    lifecycle: contextlib.AsyncExitStack
    # Opened by an entry point around each request it serves (bootstrap/infrastructure.py).
    request_scope: RequestScope

    @property
    def metrics(self) -> Metrics:
        return self.runtime.metrics


@contextlib.asynccontextmanager
async def open_feedloom(settings: Settings, clock: Clock = utc_now) -> AsyncIterator[Feedloom]:
    """Build it all; on exit close what was opened, last opened first (a background
    task registered on `lifecycle` stops before the stores it uses close)."""
    async with contextlib.AsyncExitStack() as stack:
        stores = await durable_stores(settings, stack)
        ids = await leased_ids(stores.worker_leases, clock, settings.worker_id, stack)
        runtime = Runtime(clock, ids, Metrics())
        redis = await redis_connection(settings, runtime.metrics, stack)
        caches = await cache_ports(settings, clock, runtime.metrics, redis, stack)
        queue = event_queue(redis)
        feature_log = None
        if settings.feed.feature_log_path is not None:
            feature_log = FeatureLog(settings.feed.feature_log_path)
            stack.push_async_callback(feature_log.close)
        hasher = password_hasher(settings)
        passwords = Passwords(hasher, settings.password_hash_workers, settings.password_hash_queue)
        stack.callback(passwords.close)
        key = await asyncio.to_thread(secret_key, settings)
        outbound = generator_client(settings, stack)
        services = build_services(
            settings, stores, caches, queue, runtime, passwords, feature_log, key, outbound
        )
        hooks = webhook_client(settings, stack)
        add_webhooks(settings, stores, runtime, services.apps, services.worker, hooks)
        scope = request_scope(redis)
        yield Feedloom(settings, stores, caches, queue, runtime, services, hasher, stack, scope)


def password_hasher(settings: Settings) -> PasswordHasher:
    return PasswordHasher(
        time_cost=settings.password_hash_time_cost, memory_cost=settings.password_hash_memory_kib
    )
