"""Caches may lose everything: afterwards every feed is rebuilt on demand from the
durable store, page for page equal to what it was.

On PostgreSQL + Redis the loss is every key of the test's prefix deleted while the
service runs (never FLUSHALL: the server is shared); on every set it is also a restart,
a new process on the same durable store (for the embedded set, the same data dir)
whose in-process caches start empty.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.lifespan import lifespan_of
from tests.servers import delete_keys_of
from tests.world import User, World

Pages = list[list[str]]


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[World]:
    app = create_app(settings, inline_worker=False)
    async with lifespan_of(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield World(client, app.state.feedloom)


async def pages(world: World, reader: User, limit: int = 4) -> Pages:
    found: Pages = []
    params: dict[str, str | int] = {"limit": limit}
    while True:
        page = await world.feed(reader, **params)
        found.append([item["post_id"] for item in page["items"]])
        if not page["next_cursor"]:
            return found
        params["cursor"] = page["next_cursor"]


async def build_world(world: World) -> list[User]:
    """Pushed, bulk-lane and pulled authors (shrunk settings: bulk above 2 followers,
    pulled above 4), a deleted post, and readers whose timelines exist."""
    alice, mid, star = await world.user(), await world.user(), await world.user()
    readers = [await world.user() for _ in range(2)]
    extras = [await world.user() for _ in range(3)]
    for reader in readers:
        for author in (alice, mid, star):
            await world.follow(reader, author)
        await world.feed(reader)
    for fan in extras[:1]:
        await world.follow(fan, mid)
    for fan in extras:
        await world.follow(fan, star)
    for n in range(15):
        await world.post((alice, mid, star)[n % 3], f"n{n}")
    doomed = await world.post(alice, "deleted soon")
    await world.settle()
    deleted = await world.client.delete(f"/v1/posts/{doomed}", headers=alice.auth)
    assert deleted.status_code == 204, deleted.text
    await world.post(mid, "after the delete")
    await world.settle()
    return readers


async def test_feeds_are_rebuilt_page_by_page_after_the_caches_are_lost(
    app_settings: Settings,
) -> None:
    async with running(app_settings) as world:
        readers = await build_world(world)
        before = {reader.id: await pages(world, reader) for reader in readers}
        assert all(sum(map(len, found)) == 16 for found in before.values())
        assert all(len(found) > 2 for found in before.values())
        if app_settings.redis_url is not None:
            assert await delete_keys_of(app_settings.redis_prefix) > len(readers)
            assert await world.feedloom.caches.timelines.read(int(readers[0].id), None, 5) is None
            assert {reader.id: await pages(world, reader) for reader in readers} == before

    async with running(app_settings) as restarted:
        if app_settings.redis_url is None:  # in-process caches died with the process
            assert (
                await restarted.feedloom.caches.timelines.read(int(readers[0].id), None, 5) is None
            )
        assert {reader.id: await pages(restarted, reader) for reader in readers} == before
