"""Automatic pipelining on a real Redis: lookups awaited together take one round trip,
and each caller gets exactly its own replies and errors."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.exceptions import NoScriptError, ResponseError

from feedloom.adapters.redis.wire import RedisClient, open_client
from feedloom.adapters.redis.wire.autopipeline import AutoPipelinedRedis, Command
from tests.servers import REDIS_URL, scratch_redis_client

pytestmark = pytest.mark.redis


@pytest.fixture
async def redis() -> AsyncIterator[tuple[RedisClient, str]]:
    async with scratch_redis_client() as (client, prefix):
        yield client, prefix


def count_round_trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    trips: list[int] = []
    send = AutoPipelinedRedis._round_trip

    async def counted(self: AutoPipelinedRedis, commands: list[Command]) -> list[Any]:
        trips.append(len(commands))
        return await send(self, commands)

    monkeypatch.setattr(AutoPipelinedRedis, "_round_trip", counted)
    return trips


async def test_lookups_awaited_together_share_one_round_trip(
    redis: tuple[RedisClient, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, prefix = redis
    await client.set(f"{prefix}:a", b"1")
    await client.rpush(f"{prefix}:l", b"x", b"y")
    trips = count_round_trips(monkeypatch)

    async def two_gets() -> list[Any]:
        pipe = client.pipeline(transaction=False)
        pipe.get(f"{prefix}:a")
        pipe.get(f"{prefix}:missing")
        return await pipe.execute()

    single, piped, listed = await asyncio.gather(
        client.get(f"{prefix}:a"), two_gets(), client.lrange(f"{prefix}:l", 0, -1)
    )
    assert (single, piped, listed) == (b"1", [b"1", None], [b"x", b"y"])
    assert trips == [4]  # four commands, one round trip


async def test_each_caller_gets_its_own_error_and_the_others_their_replies(
    redis: tuple[RedisClient, str],
) -> None:
    client, prefix = redis
    await client.set(f"{prefix}:a", b"1")
    results = await asyncio.gather(
        client.execute_command("EVALSHA", "0" * 40, 0),
        client.get(f"{prefix}:a"),
        client.lpush(f"{prefix}:a", b"wrong type"),
        return_exceptions=True,
    )
    assert isinstance(results[0], NoScriptError)
    assert results[1] == b"1"
    assert isinstance(results[2], ResponseError)


async def test_a_transaction_is_never_joined_to_a_batch(redis: tuple[RedisClient, str]) -> None:
    client, prefix = redis
    pipe = client.pipeline(transaction=True)
    pipe.incr(f"{prefix}:n")
    pipe.incr(f"{prefix}:n")
    assert await pipe.execute() == [1, 2]


async def test_replies_pass_through_the_commands_response_callbacks(
    redis: tuple[RedisClient, str],
) -> None:
    client, prefix = redis
    set_done, exists, ttl_set = await asyncio.gather(
        client.set(f"{prefix}:a", b"1"),
        client.exists(f"{prefix}:a", f"{prefix}:missing"),
        client.expire(f"{prefix}:a", 60),
    )
    assert (set_done, exists, ttl_set) == (True, 1, True)  # OK, integers 0/1 as bools


async def test_round_trips_reuse_a_kept_connection_not_the_pools_checkout(
    redis: tuple[RedisClient, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, prefix = redis
    assert isinstance(client, AutoPipelinedRedis)
    await client.get(f"{prefix}:a")  # a connection is kept from here on
    checkouts: list[int] = []
    checkout = client.connection_pool.get_connection

    async def counted(*args: Any, **kwargs: Any) -> Any:
        checkouts.append(1)
        return await checkout(*args, **kwargs)  # type: ignore[no-untyped-call]

    monkeypatch.setattr(client.connection_pool, "get_connection", counted)
    for _ in range(20):
        assert await client.get(f"{prefix}:a") is None
    assert checkouts == []


async def test_a_kept_connection_the_server_closed_is_replaced_unnoticed(
    redis: tuple[RedisClient, str],
) -> None:
    client, prefix = redis
    await client.set(f"{prefix}:a", b"1")
    kept_id = await client.client_id()
    other = await open_client(REDIS_URL)
    try:
        assert await other.client_kill_filter(_id=str(kept_id)) == 1
    finally:
        await other.aclose()
    await asyncio.sleep(0.05)  # the event loop sees the connection's end
    assert await client.get(f"{prefix}:a") == b"1"
    assert await client.client_id() != kept_id
