"""The multiplexed connection on a real Redis: batches share one socket, each gets its
own replies in order, and a cancelled, failed or timed-out batch never leaves the next
one reading someone else's replies."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
from redis.exceptions import ConnectionError, NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from feedloom.adapters.redis.wire.client import open_client
from feedloom.adapters.redis.wire.multiplexed import MultiplexedConnection
from feedloom.adapters.redis.wire.resp import Address
from tests.servers import REDIS_URL, scratch_redis_prefix

pytestmark = pytest.mark.redis


def local_address(db: int = 0) -> Address:
    parts = urlsplit(REDIS_URL)
    return Address(host=parts.hostname or "127.0.0.1", port=parts.port or 6379, db=db)


@pytest.fixture
async def connection() -> AsyncIterator[tuple[MultiplexedConnection, str]]:
    async with scratch_redis_prefix() as prefix:
        multiplexed = MultiplexedConnection(local_address())
        try:
            yield multiplexed, prefix
        finally:
            await multiplexed.close()


async def test_concurrent_batches_each_get_their_own_replies_in_order(
    connection: tuple[MultiplexedConnection, str],
) -> None:
    multiplexed, prefix = connection
    await multiplexed.execute([("SET", f"{prefix}:{i}", i) for i in range(50)])
    batches = [[("GET", f"{prefix}:{i}"), ("GET", f"{prefix}:{i + 1}")] for i in range(49)]
    replies = await asyncio.gather(*(multiplexed.execute(batch) for batch in batches))
    assert replies == [[str(i).encode(), str(i + 1).encode()] for i in range(49)]


async def test_a_commands_error_is_its_reply_and_the_rest_of_the_batch_still_runs(
    connection: tuple[MultiplexedConnection, str],
) -> None:
    multiplexed, prefix = connection
    replies = await multiplexed.execute(
        [
            ("SET", f"{prefix}:s", "x"),
            ("LPUSH", f"{prefix}:s", "wrong type"),
            ("EVALSHA", "0" * 40, 0),
            ("CLIENT ID",),  # a command redis-py names in two words
            ("GET", f"{prefix}:s"),
        ]
    )
    assert replies[0] == b"OK"
    assert type(replies[1]) is ResponseError
    assert isinstance(replies[2], NoScriptError)
    assert isinstance(replies[3], int)
    assert replies[4] == b"x"


async def test_a_cancelled_batch_does_not_shift_the_replies_of_the_next(
    connection: tuple[MultiplexedConnection, str],
) -> None:
    multiplexed, prefix = connection
    await multiplexed.execute([("SET", f"{prefix}:a", "a"), ("SET", f"{prefix}:b", "b")])
    slow = asyncio.ensure_future(multiplexed.execute([("BLPOP", f"{prefix}:never", "0.2")]))
    await asyncio.sleep(0.05)  # written, its reply not yet back
    slow.cancel()
    assert await multiplexed.execute([("GET", f"{prefix}:a"), ("GET", f"{prefix}:b")]) == [
        b"a",
        b"b",
    ]


async def test_a_lost_connection_fails_its_waiting_batches_and_the_next_reconnects(
    connection: tuple[MultiplexedConnection, str],
) -> None:
    multiplexed, prefix = connection
    [own_id] = await multiplexed.execute([("CLIENT ID",)])
    waiting = asyncio.ensure_future(multiplexed.execute([("BLPOP", f"{prefix}:never", "2")]))
    await asyncio.sleep(0.05)
    other = await open_client(REDIS_URL)
    try:
        assert await other.client_kill_filter(_id=str(own_id)) == 1
    finally:
        await other.aclose()
    with pytest.raises(ConnectionError):
        await waiting
    ok, new_id = await multiplexed.execute([("SET", f"{prefix}:after", "1"), ("CLIENT ID",)])
    assert ok == b"OK" and isinstance(new_id, int) and new_id != own_id


async def test_a_batch_past_its_timeout_fails_and_the_connection_is_replaced(
    connection: tuple[MultiplexedConnection, str],
) -> None:
    _, prefix = connection
    impatient = MultiplexedConnection(local_address(), socket_timeout_s=0.05)
    try:
        [first_id] = await impatient.execute([("CLIENT ID",)])
        with pytest.raises(RedisTimeoutError):
            await impatient.execute([("BLPOP", f"{prefix}:never", "0.3")])
        [second_id] = await impatient.execute([("CLIENT ID",)])
        assert second_id != first_id  # the reply still owed went with the old connection
        assert await impatient.execute([("GET", f"{prefix}:none")]) == [None]
    finally:
        await impatient.close()


async def test_the_database_of_the_address_is_selected(
    connection: tuple[MultiplexedConnection, str],
) -> None:
    default, prefix = connection
    other_db = MultiplexedConnection(local_address(db=1))
    try:
        await other_db.execute([("SET", f"{prefix}:db", "one")])
        assert await default.execute([("GET", f"{prefix}:db")]) == [None]
        assert await other_db.execute([("GET", f"{prefix}:db"), ("DEL", f"{prefix}:db")]) == [
            b"one",
            1,
        ]
    finally:
        await other_db.close()


async def test_nothing_listening_is_a_connection_error() -> None:
    nowhere = MultiplexedConnection(Address(host="127.0.0.1", port=1))
    with pytest.raises(ConnectionError, match=r"127\.0\.0\.1:1"):
        await nowhere.execute([("PING",)])
