"""A burst of concurrent posts on the embedded default, with the worker running
in-process: SQLite's single write lock must never deadlock against the pool."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.lifespan import lifespan_of
from tests.world import World


@pytest.fixture
async def live_world(settings: Settings) -> AsyncIterator[World]:
    app = create_app(settings, inline_worker=True)  # relay + fan-out compete for the lock
    async with lifespan_of(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=20) as c:
            yield World(c, app.state.feedloom)


async def test_sixty_four_concurrent_posts_all_answer_201(live_world: World) -> None:
    users = [await live_world.user() for _ in range(8)]
    for user in users[1:]:
        await live_world.follow(user, users[0])
    responses = await asyncio.gather(
        *(
            live_world.client.post("/v1/posts", json={"text": f"n{n}"}, headers=users[n % 8].auth)
            for n in range(64)
        )
    )
    assert [r.status_code for r in responses] == [201] * 64
