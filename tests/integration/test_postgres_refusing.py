"""PostgreSQL refusing connections, then gone from its port, as real `feedloom serve`
processes see it, over one kept-alive connection: every request that needs the store
answers 503 problem+json with Retry-After (never 500), /healthz, /metrics and a warm
feed read keep answering, no answer closes the connection, and a write retried with
its Idempotency-Key works once the database is back.

The database is a scratch one this test creates and drops, never the shared `test`.
The first outage is `ALTER DATABASE … ALLOW_CONNECTIONS false` with its backends
terminated: the pooled connections die (SQLSTATE 57P01 or a dead socket) and new ones
are refused with SQLSTATE 55000, which a list of messages once missed (a 500 each).
The server reaches the database through a TCP proxy this test runs; closing the
proxy's port is the second outage: nothing listens there, a connect is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import httpx

from feedloom.bench.scratch import create_scratch_schema
from tests.integration.processes import Fleet, fleet, free_port
from tests.integration.raw_http import Answer, KeptAlive
from tests.integration.test_database_outage import CuttableProxy
from tests.limits import lifted_rate_limit_env
from tests.servers import (
    POSTGRES_URL,
    REDIS_URL,
    TEST_SECRET_KEY,
    require_postgres,
    scratch_redis_prefix,
    unique_name,
)
from tests.world import User, World

SCHEMA = "feedloom"
FANOUT_WAIT_S = 60.0


@contextlib.asynccontextmanager
async def scratch_database() -> AsyncIterator[str]:
    """A database of our own on the shared server, migrated; its URL."""
    await require_postgres()
    name = unique_name("db")
    admin = await asyncpg.connect(POSTGRES_URL)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        url = f"{POSTGRES_URL.rsplit('/', 1)[0]}/{name}"
        await create_scratch_schema(url, SCHEMA)
        yield name
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def refuse_connections(name: str, refused: bool) -> None:
    """ALLOW_CONNECTIONS off, and every backend already connected terminated."""
    admin = await asyncpg.connect(POSTGRES_URL)
    try:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {not refused!s}')
        if refused:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
    finally:
        await admin.close()


@contextlib.asynccontextmanager
async def serving(database: str, proxy: CuttableProxy, logs: Path) -> AsyncIterator[list[str]]:
    """Two API processes on the database (the first runs the fan-out worker too)."""
    async with scratch_redis_prefix() as prefix:
        env = {
            **lifted_rate_limit_env(),
            "FEEDLOOM_DATA_DIR": str(logs),
            "FEEDLOOM_DATABASE_URL": proxy.url(f"{POSTGRES_URL.rsplit('/', 1)[0]}/{database}"),
            "FEEDLOOM_DATABASE_SCHEMA": SCHEMA,
            "FEEDLOOM_DATABASE_WAIT_S": "3",
            "FEEDLOOM_REDIS_URL": REDIS_URL,
            "FEEDLOOM_REDIS_PREFIX": prefix,
            "FEEDLOOM_SECRET_KEY": TEST_SECRET_KEY,
        }
        with fleet(env, logs) as processes:
            urls = []
            for n, worker in enumerate(("--inline-worker", "--no-inline-worker"), 1):
                port = free_port()
                urls.append(f"http://127.0.0.1:{port}")
                args = ("serve", "--no-demo", worker, "--port", str(port))
                processes.start(f"api-{n}", *args, worker_id=n, url=urls[-1])
            try:
                await processes.wait_ready()
                yield urls
            finally:
                # Stopped off the event loop: the server's last queries go through the
                # proxy this loop runs.
                await asyncio.to_thread(stop_all, processes)


def stop_all(processes: Fleet) -> None:
    processes.stop()


async def warm_reader(world: World) -> tuple[User, User, list[str]]:
    """An author and a reader whose feed has been read: its timeline, views and
    session are in Redis, so reading it again needs no SQL."""
    author, reader = await world.user(), await world.user()
    await world.follow(reader, author)
    posted = [await world.post(author, f"before {n}") for n in range(2)]
    async with asyncio.timeout(FANOUT_WAIT_S):
        while await world.feed_ids(reader) != posted[::-1]:  # noqa: ASYNC110 (another process)
            await asyncio.sleep(0.1)
    return author, reader, posted[::-1]


def assert_unavailable(answer: Answer) -> None:
    assert answer.status == 503, answer
    assert answer.problem()["type"] == "https://feedloom.dev/problems/unavailable"
    assert int(answer.headers["retry-after"]) > 0


async def outage_answers(
    connection: KeptAlive, author: User, reader: User, warm: list[str], key: str
) -> None:
    """What a client sees during an outage, every request on the one connection."""
    write = {**author.auth, "Content-Type": "application/json", "Idempotency-Key": key}
    for _ in range(2):  # the pooled connections found dead, then new ones refused
        assert_unavailable(await connection.send("POST", "/v1/posts", write, b'{"text": "x"}'))
    assert (await connection.send("GET", "/healthz")).status == 200
    metrics = await connection.send("GET", "/metrics")
    assert metrics.status == 200 and b"feedloom_http_requests_total" in metrics.body
    feed = await connection.send("GET", "/v1/feed", reader.auth)
    assert feed.status == 200, feed
    assert [item["post_id"] for item in json.loads(feed.body)["items"]] == warm
    sign_up = json.dumps({"username": unique_name("u")[:30], "password": "a long password"})
    json_body = {"Content-Type": "application/json"}
    assert_unavailable(await connection.send("POST", "/v1/accounts", json_body, sign_up.encode()))
    assert (await connection.send("GET", "/readyz")).status == 503


async def retried(connection: KeptAlive, author: User, key: str) -> str:
    write = {**author.auth, "Content-Type": "application/json", "Idempotency-Key": key}
    answer = await connection.send("POST", "/v1/posts", write, b'{"text": "x"}')
    assert answer.status == 201, answer
    post_id = json.loads(answer.body)["post_id"]
    assert isinstance(post_id, str)
    return post_id


async def test_refused_and_closed_port_outages_answer_503_on_a_live_connection(
    tmp_path: Path,
) -> None:
    """The feed is warmed through one process and read in the outage through the
    other, which never served this reader before: a warm read needs no SQL anywhere."""
    proxy = CuttableProxy.to_postgres()
    await proxy.start()
    try:
        async with scratch_database() as database, serving(database, proxy, tmp_path) as urls:
            async with httpx.AsyncClient(base_url=urls[0], timeout=30) as client:
                author, reader, warm = await warm_reader(World(client, None))  # type: ignore[arg-type]
            connection = await KeptAlive.open(urls[1])
            try:
                await refuse_connections(database, refused=True)
                await outage_answers(connection, author, reader, warm, "during-refusal")
                await refuse_connections(database, refused=False)
                first = await retried(connection, author, "during-refusal")

                await proxy.cut()
                await outage_answers(connection, author, reader, warm, "during-closed-port")
                await proxy.start()
                second = await retried(connection, author, "during-closed-port")
                assert first != second
            finally:
                await connection.close()
    finally:
        if proxy.server is not None:
            await proxy.cut()
