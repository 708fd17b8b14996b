"""Redis goes away: the feed still opens (chronologically, from the durable store),
posting still answers 201, and fan-out catches up when Redis returns.

The test runs its own redis-server on a free port, so it can stop it.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from feedloom.api.app import create_app
from feedloom.bench.redis_cluster import node_answers
from feedloom.settings import Settings
from tests.integration.test_redis_cluster import free_ports, wait_for
from tests.lifespan import lifespan_of
from tests.servers import unavailable
from tests.world import World


class PrivateRedis:
    def __init__(self, server: str, port: int, workdir: Path) -> None:
        self.server, self.port, self.workdir = server, port, workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.server, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--dir", str(self.workdir), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_for(lambda: node_answers(self.port), "redis-server")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = shutil.which("redis-server")
    if server is None:
        unavailable("redis-server", "not installed")
    redis = PrivateRedis(server, free_ports(1)[0], tmp_path)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
async def world_on(private_redis: PrivateRedis, settings: Settings) -> AsyncIterator[World]:
    settings = settings.model_copy(update={"redis_url": f"redis://127.0.0.1:{private_redis.port}"})
    app = create_app(settings, inline_worker=False)
    async with lifespan_of(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield World(client, app.state.feedloom)


async def test_a_ranked_feed_goes_on_in_time_order_while_redis_is_down(
    world_on: World, private_redis: PrivateRedis
) -> None:
    """Its sessions live in Redis: page 2 of a ranked feed, asked for while Redis is
    down, goes on in time order below the oldest post page 1 showed, and says so."""
    world = world_on
    reader, authors = await world.user(), [await world.user() for _ in range(2)]
    for author in authors:
        await world.follow(reader, author)
    await world.feed(reader)
    posted = [await world.post(authors[n % 2], f"post {n}") for n in range(6)]
    await world.settle()
    first = await world.feed(reader, order="ranked", limit=2)
    assert first["next_cursor"] is not None

    private_redis.stop()
    response = await world.client.get(
        "/v1/feed",
        params={"cursor": first["next_cursor"], "limit": 10},
        headers=reader.auth,
    )
    assert response.status_code == 200, response.text
    page = response.json()
    assert page["order"] == "chronological" and page["fallback"] == "session_lost"
    shown = [item["post_id"] for item in first["items"]]
    oldest = min(int(post_id) for post_id in shown)
    rest = [post_id for post_id in posted[::-1] if int(post_id) < oldest]
    assert [item["post_id"] for item in page["items"]] == rest


async def test_the_feed_opens_and_posting_works_while_redis_is_down(
    world_on: World, private_redis: PrivateRedis
) -> None:
    world = world_on
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)
    before = [await world.post(alice, f"before {n}") for n in range(3)]
    await world.settle()
    assert await world.feed_ids(bob) == before[::-1]

    private_redis.stop()
    assert await world.feed_ids(bob) == before[::-1]  # served from the durable store
    during = await world.post(alice, "during the outage")  # 201: nothing cached on the way
    assert await world.feed_ids(alice) == [during, *before[::-1]]
    outages = world.feedloom.metrics.cache_outages
    assert (
        sum(
            sample.value
            for sample in next(iter(outages.collect())).samples
            if sample.name.endswith("_total")
        )
        > 0
    )

    private_redis.start()  # back, and empty: timelines are rebuilt, the outbox delivered
    await world.settle()
    assert await world.feed_ids(bob) == [during, *before[::-1]]
