"""`feedloom feeds` and `feedloom accounts` as an operator runs them: separate
processes against the PostgreSQL + Redis a running service uses, acting at once on what
that service (here, this test's own wiring) sees."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.errors import Unauthorized
from feedloom.domain.model import Visibility
from feedloom.settings import Settings
from tests.conftest import shrunk_settings
from tests.servers import (
    TEST_SECRET_KEY,
    postgres_settings,
    redis_settings,
    scratch_redis_prefix,
    scratch_schema,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
PASSWORD = "correct horse battery"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Feedloom]:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        settings = redis_settings(postgres_settings(shrunk_settings(tmp_path), schema), prefix)
        async with open_feedloom(settings) as feedloom:
            yield feedloom


def feedloom_cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    assert settings.database_url and settings.database_schema and settings.redis_url
    env = {
        **os.environ,
        "COLUMNS": "80",
        "FEEDLOOM_DATABASE_URL": settings.database_url,
        "FEEDLOOM_DATABASE_SCHEMA": settings.database_schema,
        "FEEDLOOM_REDIS_URL": settings.redis_url,
        "FEEDLOOM_REDIS_PREFIX": settings.redis_prefix,
        "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        "FEEDLOOM_PASSWORD_HASH_TIME_COST": "1",
        "FEEDLOOM_PASSWORD_HASH_MEMORY_KIB": "256",
    }
    done = subprocess.run(
        [sys.executable, "-m", "feedloom", *args], env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


async def test_feeds_are_shown_cleared_and_rebuilt_from_another_process(
    service: Feedloom,
) -> None:
    services, settings = service.services, service.settings
    alice = await services.accounts.register("alice", PASSWORD, "Alice")
    bob = await services.accounts.register("bob", PASSWORD, "Bob")
    await services.relations.follow(bob, alice)
    post = await services.publish(alice, "hello bob", [], Visibility.PUBLIC, None)
    await services.rebuilder.rebuild(bob, [alice], follows_pulled=False)

    shown = feedloom_cli(settings, "feeds", "show", "bob").stdout.splitlines()
    assert shown[0].startswith(f"bob (id {bob}): 1 entries")
    assert shown[2].split() == [str(post.post_id), *shown[2].split()[1:3], "alice", "pushed"]
    assert max(map(len, shown)) <= 80

    feedloom_cli(settings, "feeds", "clear", "--all")
    assert await service.caches.timelines.read(bob, None, 10) is None
    assert "rebuilt 2 timelines" in feedloom_cli(settings, "feeds", "build", "--all").stdout
    assert await service.caches.timelines.read(bob, None, 10) == [post.post_id]


async def test_a_suspension_from_the_cli_reaches_the_running_service_at_once(
    service: Feedloom,
) -> None:
    services = service.services
    alice = await services.accounts.register("alice", PASSWORD, "Alice")
    session = await services.accounts.open_session("alice", PASSWORD)
    post = await services.publish(alice, "about to vanish", [], Visibility.PUBLIC, None)
    assert await services.auth.authenticate(session.token) == alice  # now cached

    out = feedloom_cli(service.settings, "accounts", "suspend", "alice").stdout.splitlines()
    assert out[0] == f"alice (id {alice})" and out[1].startswith("  suspended ")

    with pytest.raises(Unauthorized):
        await services.auth.authenticate(session.token)
    assert await service.caches.post_cache.get_many([post.post_id]) == {}  # loaded flagged next
    [view] = (await service.stores.posts.posts([post.post_id])).values()
    assert view.author_suspended
    feedloom_cli(service.settings, "accounts", "reinstate", "alice")
    assert (
        "role moderator"
        in feedloom_cli(service.settings, "accounts", "role", "alice", "moderator").stdout
    )
