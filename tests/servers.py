"""Real PostgreSQL and Redis for tests: reachability, scratch schemas, scratch key prefixes.

Locally an unreachable server skips the tests that need it; in CI (CI=true) it fails
them, so a missing service can never pass as green. Every test gets its own schema and
key prefix and removes exactly those afterwards: a shared server is never flushed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import NoReturn

import asyncpg
import pytest
from redis.asyncio import Redis

from feedloom.adapters.redis.wire import RedisClient, open_client
from feedloom.bench.redis_probe import delete_prefix
from feedloom.bench.scratch import create_scratch_schema, drop_scratch_schema
from feedloom.settings import Settings

POSTGRES_URL = os.environ.get(
    "FEEDLOOM_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
# What every test process on PostgreSQL or Redis signs with (they refuse to start without).
TEST_SECRET_KEY = "a-test-secret-key-for-this-suite-only"
REDIS_URL = os.environ.get("FEEDLOOM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ATTEMPTS, RETRY_S = 3, 0.5
_reachable: dict[str, str | None] = {}  # server -> None if it answered, else why not


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def unavailable(what: str, why: str) -> NoReturn:
    if in_ci():
        pytest.fail(f"{what} is required when CI=true but unreachable: {why}", pytrace=False)
    pytest.skip(f"{what} unreachable ({why})")


def unique_name(kind: str) -> str:
    return f"t_{kind}_{uuid.uuid4().hex[:12]}"


async def require_postgres() -> None:
    if "postgres" not in _reachable:
        _reachable["postgres"] = await _retry(_ping_postgres)
    if why := _reachable["postgres"]:
        unavailable(f"PostgreSQL at {POSTGRES_URL}", why)


async def require_redis() -> None:
    if "redis" not in _reachable:
        _reachable["redis"] = await _retry(_ping_redis)
    if why := _reachable["redis"]:
        unavailable(f"Redis at {REDIS_URL}", why)


async def _ping_postgres() -> None:
    connection = await asyncpg.connect(POSTGRES_URL, timeout=2)
    await connection.close()


async def _ping_redis() -> None:
    client = Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        await client.ping()
    finally:
        await client.aclose()


async def _retry(ping: Callable[[], Awaitable[None]]) -> str | None:
    """A short wait-and-retry: a server that is still starting gets a moment."""
    why = "no attempt"
    for attempt in range(ATTEMPTS):
        try:
            await ping()
            return None
        except Exception as error:  # any failure to answer is the same verdict
            why = f"{type(error).__name__}: {error}"
        if attempt + 1 < ATTEMPTS:
            await asyncio.sleep(RETRY_S)
    return why


@contextlib.asynccontextmanager
async def scratch_schema(migrated: bool = True) -> AsyncIterator[str]:
    """A fresh PostgreSQL schema, migrated unless asked not to (then it does not even
    exist yet), dropped with everything in it afterwards."""
    await require_postgres()
    schema = unique_name("schema")
    try:
        if migrated:
            await create_scratch_schema(POSTGRES_URL, schema)
        yield schema
    finally:
        await drop_scratch_schema(POSTGRES_URL, schema)


@contextlib.asynccontextmanager
async def scratch_redis_prefix() -> AsyncIterator[str]:
    """A key prefix of our own; afterwards exactly the keys containing it are deleted."""
    await require_redis()
    prefix = unique_name("redis")
    try:
        yield prefix
    finally:
        await delete_keys_of(prefix)


@contextlib.asynccontextmanager
async def scratch_redis_client() -> AsyncIterator[tuple[RedisClient, str]]:
    """feedloom's own client (open_client) and a key prefix of our own, both cleaned up."""
    async with scratch_redis_prefix() as prefix:
        client = await open_client(REDIS_URL)
        try:
            yield client, prefix
        finally:
            await client.aclose()


async def delete_keys_of(prefix: str) -> int:
    """Delete the keys of one prefix (SCAN, never FLUSHALL): every key feedloom writes
    starts with it (adapters/redis/keys.py)."""
    return await delete_prefix(REDIS_URL, prefix)


def postgres_settings(settings: Settings, schema: str) -> Settings:
    return settings.model_copy(update={"database_url": POSTGRES_URL, "database_schema": schema})


def redis_settings(settings: Settings, prefix: str) -> Settings:
    return settings.model_copy(update={"redis_url": REDIS_URL, "redis_prefix": prefix})
