"""A Redis failover that loses the event stream but keeps the timelines loses no post:
the outbox holds every event until its fan-out is done, and events sent into a stream
that vanished are sent again (issue 13, item 7)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import open_client
from feedloom.api.app import create_app
from feedloom.ports import Lane
from feedloom.settings import Settings
from feedloom.write import worker as worker_module
from tests.lifespan import lifespan_of
from tests.servers import redis_settings, scratch_redis_prefix
from tests.world import User, World

pytestmark = pytest.mark.redis
# Test settings: pull_above 4, bulk_above 2. Three readers follow every author but the
# first, whom two follow: the first author's posts take the default lane, the rest bulk.
AUTHORS, READERS, POSTS_EACH, LOSSES = 4, 3, 12, 3  # 48 posts: under the cap of 50
RECOVERY_BOUND_S = 120.0  # generous: the machine is shared; the check is the count


@pytest.fixture
async def redis_world(settings: Settings) -> AsyncIterator[World]:
    fast = settings.fanout.model_copy(update={"resend_lost_after_s": 0.2})
    settings = settings.model_copy(update={"fanout": fast})
    async with scratch_redis_prefix() as prefix:
        app = create_app(redis_settings(settings, prefix), inline_worker=False)
        async with lifespan_of(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                yield World(client, app.state.feedloom)


async def lose_the_streams(settings: Settings) -> int:
    assert settings.redis_url is not None
    client = await open_client(settings.redis_url, settings.redis_cluster)
    keys = RedisKeys(settings.redis_prefix)
    try:
        return int(await client.delete(keys.stream("default"), keys.stream("bulk")))
    finally:
        await client.aclose()


async def post_while_losing_streams(world: World, authors: list[User]) -> list[str]:
    """Rounds of posts; in each, the streams are deleted while they hold the round's
    events (the consumers are held at a gate meanwhile, so the loss is certain)."""
    worker = world.feedloom.services.worker
    gate = asyncio.Event()
    consume_once = worker.consume_once

    async def gated(lane: Lane, consumer: str, block_ms: int) -> int:
        await gate.wait()
        return await consume_once(lane, consumer, block_ms)

    worker.consume_once = gated  # type: ignore[method-assign]
    posted: list[str] = []
    rng = random.Random(5)
    for round_ in range(LOSSES):
        gate.clear()
        for n in range(AUTHORS * POSTS_EACH // LOSSES):
            posted.append(await world.post(authors[len(posted) % AUTHORS], f"{round_}.{n}"))
            await asyncio.sleep(rng.random() / 100)
        deadline = time.monotonic() + RECOVERY_BOUND_S
        while await world.feedloom.stores.outbox.oldest(sent=False) is not None:
            assert time.monotonic() < deadline, "the relay never sent the round"
            await asyncio.sleep(0.05)  # until the relay has put every event on a stream
        assert await lose_the_streams(world.feedloom.settings) > 0
        gate.set()
        await asyncio.sleep(0.3)
    return posted


async def test_deleting_the_stream_under_load_loses_no_post(
    redis_world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = redis_world
    monkeypatch.setattr(worker_module, "LOST_CHECK_S", 0.2)
    authors = [await world.user() for _ in range(AUTHORS)]
    readers = [await world.user() for _ in range(READERS)]
    for n, reader in enumerate(readers):
        for author in authors if n < 2 else authors[1:]:
            await world.follow(reader, author)
        await world.feed(reader)  # active: timelines exist and are pushed to
    stop = asyncio.Event()
    running = asyncio.create_task(world.feedloom.services.worker.run(stop, concurrency=2))
    try:
        posted = await post_while_losing_streams(world, authors)
        deadline = time.monotonic() + RECOVERY_BOUND_S
        while await world.feedloom.stores.outbox.pending():
            assert time.monotonic() < deadline, "the outbox never emptied"
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        await running
    missing = {}
    for n, reader in enumerate(readers):
        timeline = await world.feedloom.caches.timelines.read(int(reader.id), None, 1000)
        assert timeline is not None  # the failover kept the timelines
        expected = posted if n < 2 else [p for i, p in enumerate(posted) if i % AUTHORS]
        missing[reader.username] = {int(p) for p in expected} - set(timeline)
    assert missing == {reader.username: set() for reader in readers}
    assert world.feedloom.metrics.lost_events_resent._value.get() > 0  # the loss was real
