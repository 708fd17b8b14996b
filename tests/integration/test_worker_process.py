"""`feedloom worker` as an operator runs it: it relays and fans out what is waiting,
then stops cleanly on SIGTERM or SIGINT (after its current batch, exit code 0)."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Post, Visibility
from feedloom.settings import Settings
from tests.integration.processes import fleet
from tests.servers import (
    POSTGRES_URL,
    REDIS_URL,
    TEST_SECRET_KEY,
    postgres_settings,
    redis_settings,
    scratch_redis_prefix,
    scratch_schema,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
async def stack(settings: Settings) -> AsyncIterator[Settings]:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        yield redis_settings(postgres_settings(settings, schema), prefix)


async def publish_a_post(feedloom: Feedloom) -> None:
    author = feedloom.runtime.ids.next_id()
    now = feedloom.runtime.clock()
    await feedloom.stores.accounts.create_user(author, "author", "Author", "hash", now)
    post_id = feedloom.runtime.ids.next_id()
    post = Post(post_id, author, "hello", Visibility.PUBLIC, created_at_of(post_id))
    await feedloom.stores.posts.create_post(post, None, "hash", now)


async def all_handled(feedloom: Feedloom) -> bool:
    return await feedloom.stores.outbox.pending() == 0 and not any(
        (await feedloom.queue.lag()).values()
    )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_a_worker_stops_cleanly_on_a_signal(
    stack: Settings, tmp_path: Path, signum: signal.Signals
) -> None:
    assert stack.database_schema is not None
    env = {
        "FEEDLOOM_DATABASE_URL": POSTGRES_URL,
        "FEEDLOOM_DATABASE_SCHEMA": stack.database_schema,
        "FEEDLOOM_REDIS_URL": REDIS_URL,
        "FEEDLOOM_REDIS_PREFIX": stack.redis_prefix,
        "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
    }
    async with open_feedloom(stack) as feedloom:
        await publish_a_post(feedloom)
        with fleet(env, tmp_path) as processes:
            worker = processes.worker("worker", worker_id=7, concurrency=3)
            deadline = time.monotonic() + 60
            while not await all_handled(feedloom):  # the worker is up and working
                assert worker.popen.poll() is None, worker.tail()
                assert time.monotonic() < deadline, worker.tail()
                await asyncio.sleep(0.2)
            started = time.monotonic()
            worker.popen.send_signal(signum)
            code = await asyncio.to_thread(worker.popen.wait, 15)
            stopped_in = time.monotonic() - started
    assert code == 0, worker.tail()
    assert "worker stopped" in worker.log.read_text()
    assert "Traceback" not in worker.log.read_text()
    assert stopped_in < 5, f"took {stopped_in:.1f} s to stop"
