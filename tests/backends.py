"""Backend sets the same tests run against.

"embedded" (SQLite + in-process caches and queue) always runs. "production"
(PostgreSQL + Redis) runs when the servers are reachable, and in CI (CI=true) an
unreachable server is a failure, never a skip. "postgres" (PostgreSQL + in-process
caches) runs when FEEDLOOM_TEST_BACKENDS names it. Each test gets its own PostgreSQL
schema and Redis key prefix, so tests never see each other's data and no shared
server is ever flushed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from feedloom.settings import Settings
from tests.servers import postgres_settings, redis_settings, scratch_redis_prefix, scratch_schema

# name -> factory(settings) -> async context manager yielding settings for that backend.
BackendSetup = Callable[[Settings], AbstractAsyncContextManager[Settings]]
BACKEND_SETUPS: dict[str, BackendSetup] = {}
Check = Callable[[], Awaitable[None]]


def backend_names() -> list[str]:
    return ["embedded", *BACKEND_SETUPS]


@contextlib.asynccontextmanager
async def postgres(settings: Settings) -> AsyncIterator[Settings]:
    """PostgreSQL + in-process caches: the durable store alone on the server."""
    async with scratch_schema() as schema:
        yield postgres_settings(settings, schema)


@contextlib.asynccontextmanager
async def production(settings: Settings) -> AsyncIterator[Settings]:
    """PostgreSQL + Redis, as deployed: a fresh schema and a fresh key prefix."""
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield redis_settings(postgres_settings(settings, schema), prefix)


BACKEND_SETUPS["production"] = production
# PostgreSQL with in-process caches isolates a store bug from a Redis one; it costs a
# third more API-suite time, so it runs on request: FEEDLOOM_TEST_BACKENDS=postgres.
if "postgres" in os.environ.get("FEEDLOOM_TEST_BACKENDS", "").split(","):
    BACKEND_SETUPS["postgres"] = postgres
