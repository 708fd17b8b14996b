"""The database goes away: every request that needs it answers 503 problem+json with
Retry-After (never 500), a warm feed is still served from the caches, and the moment
the database is back everything works again with nothing lost.

On PostgreSQL + Redis the service reaches PostgreSQL through a TCP proxy this test
runs on its own port, so cutting the proxy (listener closed, every relayed connection
dropped) is the outage. On the embedded default the outage is SQLite's write lock held
by another process past the busy timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from feedloom.settings import Settings
from tests.integration.processes import free_port
from tests.integration.test_cache_loss import running
from tests.servers import POSTGRES_URL, redis_settings, scratch_redis_prefix, scratch_schema
from tests.world import World


class CuttableProxy:
    """127.0.0.1:`port` relayed to PostgreSQL, until `cut` (then nothing listens there:
    a connect is refused, as to a server that is not running)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    @classmethod
    def to_postgres(cls) -> CuttableProxy:
        """To the test suite's PostgreSQL server."""
        host_port = POSTGRES_URL.rsplit("@", 1)[1].split("/", 1)[0]
        host, _, port = host_port.partition(":")
        return cls((host, int(port or 5432)))

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()
        self.server = None

    async def _relay(self, client_in: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        server_in, server = await asyncio.open_connection(*self.upstream)
        self.writers |= {client, server}
        await asyncio.gather(
            self._pipe(client_in, server), self._pipe(server_in, client), return_exceptions=True
        )

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65_536):
                sink.write(data)
                await sink.drain()
        finally:
            sink.transport.abort()
            self.writers.discard(sink)

    def url(self, url: str) -> str:
        """`url` (a PostgreSQL URL) through this proxy."""
        scheme, rest = url.split("://", 1)
        credentials, _, path = rest.partition("@")
        return f"{scheme}://{credentials}@127.0.0.1:{self.port}/{path.split('/', 1)[1]}"


@pytest.fixture
async def proxy() -> AsyncIterator[CuttableProxy]:
    relay = CuttableProxy.to_postgres()
    await relay.start()
    try:
        yield relay
    finally:
        if relay.server is not None:
            await relay.cut()


def assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert int(response.headers["retry-after"]) > 0
    assert response.json()["type"].endswith("/unavailable")


async def test_a_postgresql_outage_answers_503_serves_warm_feeds_and_loses_nothing(
    proxy: CuttableProxy, settings: Settings
) -> None:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        update = {
            "database_url": proxy.url(POSTGRES_URL),
            "database_schema": schema,
            "database_wait_s": 3.0,
        }
        prepared = redis_settings(settings.model_copy(update=update), prefix)
        async with running(prepared) as world:
            await outage_and_recovery(world, proxy)


async def outage_and_recovery(world: World, proxy: CuttableProxy) -> None:
    author, reader = await world.user(), await world.user()
    await world.follow(reader, author)
    before = [await world.post(author, f"before {n}") for n in range(3)]
    await world.settle()
    assert await world.feed_ids(reader) == before[::-1]

    await proxy.cut()
    assert await world.feed_ids(reader) == before[::-1]  # the caches hold all it needs
    key = {"Idempotency-Key": "during-the-outage", **author.auth}
    assert_unavailable(await world.client.post("/v1/posts", json={"text": "x"}, headers=key))
    assert_unavailable(
        await world.client.post("/v1/accounts", json={"username": "late", "password": "p" * 12})
    )
    assert_unavailable(
        await world.client.get(f"/v1/posts/{before[0]}/comments", headers=reader.auth)
    )

    await proxy.start()
    retried = await world.client.post("/v1/posts", json={"text": "x"}, headers=key)
    assert retried.status_code == 201, retried.text
    await world.settle()
    after = retried.json()["post_id"]
    assert await world.all_feed_ids(reader) == [after, *before[::-1]]


@contextlib.contextmanager
def write_lock_held(database: Path) -> Iterator[None]:
    """Another process's transaction holding SQLite's one write lock."""
    holder = sqlite3.connect(database, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


async def test_sqlite_locked_past_the_wait_answers_503_and_reads_go_on(settings: Settings) -> None:
    async with running(settings.model_copy(update={"database_wait_s": 0.2})) as world:
        author, reader = await world.user(), await world.user()
        await world.follow(reader, author)
        first = await world.post(author, "first")
        await world.settle()
        assert await world.feed_ids(reader) == [first]

        with write_lock_held(settings.data_dir / "feedloom.sqlite3"):
            assert_unavailable(
                await world.client.post("/v1/posts", json={"text": "x"}, headers=author.auth)
            )
            assert await world.feed_ids(reader) == [first]  # WAL: readers never wait
        second = await world.post(author, "second")
        await world.settle()
        assert await world.feed_ids(reader) == [second, first]
