"""A worker killed (SIGKILL) while notification events are pending loses none and counts
none twice, on both backends: PostgreSQL + Redis with a separate `feedloom worker`, and
the embedded default, whose worker runs inside `feedloom serve` (killed with it).

This process writes the likes and follows (each event in its write's transaction), the
worker process folds them; it is killed as soon as it has folded some and not all, and
a new one finishes. The author's groups then count every liker and follower exactly.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from pydantic import SecretStr

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.model import Visibility
from feedloom.ports import NewUser
from feedloom.read.notifications import ALL_TYPES
from feedloom.settings import Settings
from tests.integration.processes import Fleet, Process, fleet, free_port
from tests.integration.test_multiprocess import process_env
from tests.limits import lifted_rate_limits
from tests.servers import (
    TEST_SECRET_KEY,
    postgres_settings,
    redis_settings,
    scratch_redis_prefix,
    scratch_schema,
)

pytestmark = [pytest.mark.slow]
LIKERS = 400
# In process a consumed batch (1,000 events) is folded in one transaction: two of them,
# so the kill can fall between.
EMBEDDED_LIKERS = 1_600
DRAIN_S = 120.0


def base_settings(tmp_path: Path) -> Settings:
    return Settings(
        environment="test",
        data_dir=tmp_path / "data",
        secret_key=SecretStr(TEST_SECRET_KEY),
        password_hash_time_cost=1,
        password_hash_memory_kib=256,
        rate_limits=lifted_rate_limits(),
    )


async def write_activity(feedloom: Feedloom, likers_n: int) -> tuple[int, int]:
    """An author, a post, `likers_n` likes of it and a quarter as many follows."""
    ids = [feedloom.runtime.ids.next_id() for _ in range(likers_n + 1)]
    users = [NewUser(i, f"k_{n}_{i % 9999}", f"K {n}", "no sign-in") for n, i in enumerate(ids)]
    await feedloom.stores.bulk.load(users, [], feedloom.runtime.clock(), lambda _: False)
    author, likers = ids[0], ids[1:]
    post_id = (
        await feedloom.services.publish(author, "kill me", [], Visibility.PUBLIC, None)
    ).post_id
    for liker in likers:
        await feedloom.services.engage.like(liker, post_id)
    for follower in likers[: likers_n // 4]:
        await feedloom.services.relations.follow(follower, author)
    return author, post_id


async def kill_midway(process: Process, feedloom: Feedloom, total: int) -> None:
    """SIGKILL once the process has folded some of the events and not all."""
    deadline = time.monotonic() + DRAIN_S
    while time.monotonic() < deadline:
        left = await feedloom.stores.notifications.pending()
        if left < total:
            break
        assert process.popen.poll() is None, process.tail()
        await asyncio.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.popen.wait()
    assert await feedloom.stores.notifications.pending() > 0, "killed too late: all folded"


async def drained(feedloom: Feedloom, fleet_: Fleet) -> None:
    deadline = time.monotonic() + DRAIN_S
    while await feedloom.stores.notifications.pending():
        assert time.monotonic() < deadline, fleet_.tails()
        await asyncio.sleep(0.2)


async def assert_exact(feedloom: Feedloom, author: int, post_id: int, likers: int) -> None:
    page = await feedloom.services.notifications.page(author, 10, None, ALL_TYPES)
    counts = {(i.group.type.value, i.group.post_id): i.group.accounts_count for i in page.items}
    assert counts == {("like", post_id): likers, ("follow", 0): likers // 4}


async def scenario(
    settings: Settings, tmp_path: Path, start: Callable[[Fleet, int], Process], likers: int
) -> None:
    async with open_feedloom(settings) as feedloom:
        author, post_id = await write_activity(feedloom, likers)
        total = await feedloom.stores.notifications.pending()
        assert total == likers + likers // 4
        with fleet(process_env_of(settings), tmp_path) as running:
            first = start(running, 1)
            await kill_midway(first, feedloom, total)
            start(running, 2)
            await drained(feedloom, running)
        # This process' own cached record predates the other processes' folds.
        await feedloom.caches.notifications.invalidate([str(author)])
        await assert_exact(feedloom, author, post_id, likers)


def process_env_of(settings: Settings) -> dict[str, str]:
    if settings.database_url is not None:
        return process_env(settings)
    return {
        "FEEDLOOM_ENVIRONMENT": "test",
        "FEEDLOOM_DATA_DIR": str(settings.data_dir),
        "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        # The relay sends again what the killed process had sent to its in-memory queue.
        "FEEDLOOM_FANOUT__RESEND_LOST_AFTER_S": "1",
    }


@pytest.fixture
async def production(tmp_path: Path) -> AsyncIterator[Settings]:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield redis_settings(postgres_settings(base_settings(tmp_path), schema), prefix)


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_killed_worker_loses_and_doubles_no_notification_on_postgres_and_redis(
    production: Settings, tmp_path: Path
) -> None:
    def worker(running: Fleet, n: int) -> Process:
        return running.worker(f"worker{n}", worker_id=10 + n)

    await scenario(production, tmp_path, worker, LIKERS)


async def test_a_killed_embedded_server_loses_and_doubles_no_notification(
    tmp_path: Path,
) -> None:
    def serve(running: Fleet, n: int) -> Process:
        port = free_port()
        args = ("serve", "--no-demo", "--port", str(port))
        return running.start(f"serve{n}", *args, worker_id=10 + n)

    await scenario(base_settings(tmp_path), tmp_path, serve, EMBEDDED_LIKERS)
