"""What every command that touches the service does first: read the settings (or say in
one line which FEEDLOOM_* variable is wrong, exit 2: the environment is the command's
input too), and refuse a database or Redis it cannot use, in one line, exit 1.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from feedloom.cli.errors import USAGE, fail

if TYPE_CHECKING:
    from feedloom.bootstrap import Feedloom
    from feedloom.settings import Settings

T = TypeVar("T")


def command_settings(data_dir: Path | None = None, demo: bool = False) -> Settings:
    from feedloom.settings import SettingsError, load_settings

    try:
        return load_settings(data_dir, demo)
    except SettingsError as error:
        fail(str(error), USAGE)


def refuse_unusable_backends(settings: Settings) -> None:
    """Stop before serving anything if the database is unreachable or unmigrated,
    Redis is configured but does not answer, or the kept secret key is unsafe."""
    from feedloom.adapters.redis import RedisUnavailable, open_redis
    from feedloom.adapters.sql.database import database_problem
    from feedloom.bootstrap.infrastructure import redis_config
    from feedloom.bootstrap.secret_key import secret_key
    from feedloom.settings import SettingsError

    try:
        secret_key(settings)  # made here on first start (embedded default)
    except SettingsError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot keep the secret key in {settings.data_dir}: {error.strerror}")

    url, schema = settings.effective_database_url, settings.database_schema
    if problem := asyncio.run(database_problem(url, schema)):
        fail(problem)

    async def ping_redis() -> None:
        redis = await open_redis(redis_config(settings))
        await redis.close()

    if settings.redis_url is not None:
        try:
            asyncio.run(ping_redis())
        except RedisUnavailable as error:
            fail(str(error))


def run_on_feedloom(settings: Settings, body: Callable[[Feedloom], Awaitable[T]]) -> T:
    """Check the backends, open the service's wiring, run `body`; a refused domain
    operation (no such account, a bad value) is one line: exit 2 for bad input, else 1."""
    from feedloom.bootstrap import open_feedloom
    from feedloom.domain.errors import FeedloomError, InvalidInput

    refuse_unusable_backends(settings)

    async def main() -> T:
        async with open_feedloom(settings) as feedloom:
            return await body(feedloom)

    try:
        return asyncio.run(main())
    except FeedloomError as error:
        fail(str(error), USAGE if isinstance(error, InvalidInput) else 1)
