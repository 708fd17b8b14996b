"""Redis is a cache: when it loses every key, feeds are rebuilt on demand from the
durable store and equal what they were."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from feedloom.adapters.redis.connect import delete_all_keys
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.wire import open_client
from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.lifespan import lifespan_of
from tests.servers import redis_settings, scratch_redis_prefix
from tests.world import World

pytestmark = pytest.mark.redis


@pytest.fixture
async def redis_world(settings: Settings) -> AsyncIterator[World]:
    async with scratch_redis_prefix() as prefix:
        app = create_app(redis_settings(settings, prefix), inline_worker=False)
        async with lifespan_of(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                yield World(client, app.state.feedloom)


async def lose_every_key(settings: Settings) -> int:
    assert settings.redis_url is not None
    client = await open_client(settings.redis_url, settings.redis_cluster)
    try:
        return await delete_all_keys(client, RedisKeys(settings.redis_prefix))
    finally:
        await client.aclose()


async def test_feeds_are_rebuilt_the_same_after_redis_loses_every_key(redis_world: World) -> None:
    world = redis_world
    alice, bob, carol, dave = [await world.user() for _ in range(4)]
    for follower, followee in ((bob, alice), (bob, carol), (dave, alice), (dave, bob)):
        await world.follow(follower, followee)
    readers = (bob, dave)
    for reader in readers:
        await world.feed(reader)  # active readers: their timelines exist and get pushed to
    for n in range(9):
        await world.post((alice, bob, carol)[n % 3], f"n{n}")
    doomed = await world.post(alice, "deleted soon")
    await world.settle()
    await world.client.delete(f"/v1/posts/{doomed}", headers=alice.auth)
    await world.settle()
    before = {reader.id: await world.all_feed_ids(reader, limit=4) for reader in readers}

    assert await lose_every_key(world.feedloom.settings) > len(readers)
    assert await world.feedloom.caches.timelines.read(int(bob.id), None, 5) is None

    after = {reader.id: await world.all_feed_ids(reader, limit=4) for reader in readers}
    assert after == before
    assert len(before[bob.id]) == 9 and doomed not in before[bob.id]
