"""Backend sets the same tests run against.

"embedded" (SQLite + in-process caches and queue) always runs. "production"
(PostgreSQL + Redis) runs when the servers are reachable, and in CI (CI=true) an
unreachable server is a failure, never a skip. Each test gets its own PostgreSQL
schema and Redis key prefix, so tests never see each other's data and no shared
server is ever flushed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from feedloom.settings import Settings

# name -> factory(settings) -> async context manager yielding settings for that backend.
BackendSetup = Callable[[Settings], AbstractAsyncContextManager[Settings]]
BACKEND_SETUPS: dict[str, BackendSetup] = {}
Check = Callable[[], Awaitable[None]]


def backend_names() -> list[str]:
    return ["embedded", *BACKEND_SETUPS]
