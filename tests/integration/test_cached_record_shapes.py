"""Every record feedloom caches in Redis carries its shape's tag: a record another
version wrote in an older shape (a rolling deploy) is read as a miss, rebuilt from
the durable store, and written again in today's shape; the reader sees the truth."""

from __future__ import annotations

from array import array
from collections.abc import AsyncIterator
from typing import cast

import httpx
import orjson
import pytest

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.views import POST_SHAPE
from feedloom.adapters.redis.wire import RedisClient, open_client
from feedloom.api.app import create_app
from feedloom.lookups.reader_state import SHAPE as READER_SHAPE
from feedloom.settings import Settings
from tests.lifespan import lifespan_of
from tests.servers import redis_settings, scratch_redis_prefix
from tests.world import World

pytestmark = pytest.mark.redis


@pytest.fixture
async def redis_world(settings: Settings) -> AsyncIterator[World]:
    async with scratch_redis_prefix() as prefix:
        settings = redis_settings(settings, prefix).model_copy(
            update={"redis_near_cache": False}  # each read goes to Redis: what is there counts
        )
        app = create_app(settings, inline_worker=False)
        async with lifespan_of(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                yield World(client, app.state.feedloom)


@pytest.fixture
async def redis(redis_world: World) -> AsyncIterator[tuple[RedisClient, RedisKeys]]:
    settings = redis_world.feedloom.settings
    assert settings.redis_url is not None
    client = await open_client(settings.redis_url)
    try:
        yield client, RedisKeys(settings.redis_prefix)
    finally:
        await client.aclose()


async def test_an_old_shaped_reader_record_is_a_miss_and_rebuilt(
    redis_world: World, redis: tuple[RedisClient, RedisKeys]
) -> None:
    world, (client, keys) = redis_world, redis
    reader, author = await world.user(), await world.user()
    await world.follow(reader, author)
    post_id = await world.post(author, "seen through the rebuilt record")
    await world.settle()
    assert await world.feed_ids(reader) == [post_id]
    record = keys.record("rv", reader.id)[0]
    # The shape before tags: [following, pulled, blocked, muted, order, modes]; it says
    # the reader follows nobody, which a reader of it would believe.
    await client.set(record, orjson.dumps([[], [], [], [], None, 0]))
    assert await world.feed_ids(reader) == [post_id]
    # written again, in today's shape
    assert orjson.loads(cast(bytes, await client.get(record)))[0] == READER_SHAPE


async def test_an_old_shaped_post_view_is_a_miss_and_rebuilt(
    redis_world: World, redis: tuple[RedisClient, RedisKeys]
) -> None:
    world, (client, keys) = redis_world, redis
    author = await world.user()
    post_id = await world.post(author, "the true text")
    await world.settle()
    view = keys.view("post", int(post_id))
    old = [int(author.id), "an old text", "public", [], False]  # no tag, fewer fields
    await client.set(view, orjson.dumps(old))
    shown = await world.client.get(f"/v1/posts/{post_id}", headers=author.auth)
    assert shown.status_code == 200, shown.text
    assert shown.json()["text"] == "the true text"
    assert orjson.loads(cast(bytes, await client.get(view)))[0] == POST_SHAPE


async def test_an_old_shaped_likes_record_is_a_miss_and_rebuilt(
    redis_world: World, redis: tuple[RedisClient, RedisKeys]
) -> None:
    world, (client, keys) = redis_world, redis
    reader, author = await world.user(), await world.user()
    await world.follow(reader, author)
    post_id = await world.post(author, "liked")
    await world.settle()
    liked = await world.client.put(f"/v1/posts/{post_id}/like", headers=reader.auth)
    assert liked.status_code in (200, 201), liked.text
    assert (await world.feed(reader))["items"][0]["liked_by_me"] is True
    record = keys.record("lk", reader.id)[0]
    # The shape before tags: [watermark, liked post IDs...]; this one says "liked nothing".
    await client.set(record, array("q", [int(post_id) - 1]).tobytes())
    assert (await world.feed(reader))["items"][0]["liked_by_me"] is True
    rebuilt = array("q")
    rebuilt.frombytes(cast(bytes, await client.get(record)))
    assert rebuilt[0] == -2 and int(post_id) in rebuilt[2:]
