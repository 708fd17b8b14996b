"""The near cache of views (adapters/redis/near_cache.py): views kept in process, never
staler than Redis. Each "process" here is a client and a near cache of its own on one
key prefix, as two API processes of a deployment are."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from feedloom.adapters.redis import caches as redis_caches
from feedloom.adapters.redis.caches import RAW, RedisCounterStore, RedisViewCache
from feedloom.adapters.redis.client import open_client
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.multiplexed import Address
from feedloom.adapters.redis.near_cache import Listener, NearCache
from feedloom.adapters.redis.scripts import RedisClient
from feedloom.domain.model import Counts
from tests.servers import REDIS_URL, scratch_redis_prefix

pytestmark = pytest.mark.redis


@dataclass
class Process:
    client: RedisClient
    near: NearCache
    views: RedisViewCache[bytes]
    resets: list[str]
    reset: asyncio.Event

    def on_reset(self, reason: str) -> None:
        self.resets.append(reason)
        self.reset.set()

    async def resets_become(self, resets: list[str]) -> None:
        async with asyncio.timeout(10):
            while self.resets != resets:
                await self.reset.wait()
                self.reset.clear()


@pytest.fixture
async def prefix() -> AsyncIterator[str]:
    async with scratch_redis_prefix() as prefix:
        yield prefix


async def _process(prefix: str, limit: int = 1_000) -> Process:
    client = await open_client(REDIS_URL)
    keys, resets = RedisKeys(prefix), list[str]()
    near = NearCache(Address.of(client.connection_pool.connection_kwargs))  # type: ignore[union-attr]
    region = near.region(keys.view_prefix("post"), limit)
    process = Process(
        client,
        near,
        RedisViewCache(client, keys, "post", RAW, near=region),
        resets,
        asyncio.Event(),
    )
    near.on_reset = process.on_reset
    assert await near.start()
    return process


@pytest.fixture
async def two(prefix: str) -> AsyncIterator[tuple[Process, Process]]:
    a, b = await _process(prefix), await _process(prefix)
    try:
        yield a, b
    finally:
        for process in (a, b):
            await process.near.close()
            await process.client.aclose()


def _count_fetches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Keys each Redis read of views asked for."""
    asked: list[int] = []
    get_all = redis_caches._get_all

    async def counted(client: RedisClient, names: Sequence[str]) -> list[bytes | None]:
        asked.append(len(names))
        return await get_all(client, names)

    monkeypatch.setattr(redis_caches, "_get_all", counted)
    return asked


async def test_a_view_read_once_is_served_in_process(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = two
    await a.views.set_many({1: b"one", 2: b"two"})
    asked = _count_fetches(monkeypatch)
    assert await a.views.get_many([1, 2, 3]) == {1: b"one", 2: b"two"}
    assert await a.views.get_many([1, 2]) == {1: b"one", 2: b"two"}
    assert asked == [3]  # the second read asked Redis for nothing


def _deliver_late(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the invalidation connection receives is handled 50 ms late, in order: as
    if a's invalidations were slow to arrive."""
    handle, late = Listener._handle, deque[tuple[Listener, Any]]()

    def deliver() -> None:
        handle(*late.popleft())

    def slow(listener: Listener, reply: Any) -> None:
        late.append((listener, reply))
        asyncio.get_running_loop().call_later(0.05, deliver)

    monkeypatch.setattr(Listener, "_handle", slow)


async def test_another_process_write_is_seen_on_the_very_next_read(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even when its invalidations are slow to come: a read waits for a PING sent after
    it began, which Redis answers after every invalidation it sent before."""
    a, b = two
    _deliver_late(monkeypatch)
    await b.views.set_many({1: b"old", 2: b"kept"})
    assert await a.views.get_many([1, 2]) == {1: b"old", 2: b"kept"}
    await b.views.set_many({1: b"new"})
    assert await a.views.get_many([1, 2]) == {1: b"new", 2: b"kept"}
    await b.views.delete_many([2])
    assert await a.views.get_many([1, 2]) == {1: b"new"}


async def test_an_invalidation_that_overtakes_the_reply_keeps_the_old_view_out(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process b rewrites the view while a's read of it is in flight, and a applies
    the invalidation before the (older) reply: a must not keep the old view."""
    a, b = two
    await b.views.set_many({1: b"old"})
    fetch = RedisViewCache._fetch

    async def overtaken(self: RedisViewCache[bytes], keys: Sequence[int]) -> dict[int, bytes]:
        found = await fetch(self, keys)  # the old view, read
        if self is a.views:
            await b.views.set_many({1: b"new"})  # then changed
            assert await a.near.fence()  # and its invalidation applied first
        return found

    monkeypatch.setattr(RedisViewCache, "_fetch", overtaken)
    assert await a.views.get_many([1]) == {1: b"old"}  # what Redis said when asked
    monkeypatch.setattr(RedisViewCache, "_fetch", fetch)
    assert await a.views.get_many([1]) == {1: b"new"}  # not the old one, kept


async def test_a_lost_invalidation_connection_empties_the_cache_and_comes_back(
    two: tuple[Process, Process],
) -> None:
    a, b = two
    await b.views.set_many({1: b"old"})
    assert await a.views.get_many([1]) == {1: b"old"}
    assert a.resets == ["connected"]
    assert a.near.client_id is not None
    await b.client.execute_command("CLIENT", "KILL", "ID", a.near.client_id)
    await b.views.set_many({1: b"written while a heard nothing"})
    await a.resets_become(["connected", "lost", "connected"])
    assert await a.views.get_many([1]) == {1: b"written while a heard nothing"}
    await b.views.set_many({1: b"after"})
    assert await a.views.get_many([1]) == {1: b"after"}


async def test_own_writes_are_seen_on_the_next_read(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = two
    await a.views.set_many({1: b"one"})
    assert await a.views.get_many([1]) == {1: b"one"}
    asked = _count_fetches(monkeypatch)
    await a.views.delete_many([1])
    assert await a.views.get_many([1]) == {}
    assert asked == [1]


async def test_the_cache_is_bounded(prefix: str) -> None:
    process = await _process(prefix, limit=10)
    try:
        await process.views.set_many({key: b"v" for key in range(25)})
        for start in range(0, 25, 5):
            await process.views.get_many(list(range(start, start + 5)))
        region = process.views._near
        assert region is not None
        kept, _ = region.split(list(range(25)))
        assert 0 < len(kept) <= 10
    finally:
        await process.near.close()
        await process.client.aclose()


async def _counters(prefix: str) -> tuple[RedisClient, NearCache, RedisCounterStore]:
    client = await open_client(REDIS_URL)
    keys = RedisKeys(prefix)
    near = NearCache(Address.of(client.connection_pool.connection_kwargs))  # type: ignore[union-attr]
    counters = RedisCounterStore(client, keys, shards=4, near=near.region(keys.counter_prefix()))
    assert await near.start()
    return client, near, counters


async def test_counts_changed_by_another_process_are_seen_on_the_next_read(prefix: str) -> None:
    """Counts too, a hot post's too: a sub-counter's change invalidates its post."""
    (a_client, a_near, a), (b_client, b_near, b) = await _counters(prefix), await _counters(prefix)
    try:
        await b.set_many({1: Counts(likes=1), 2: Counts(likes=5)})
        assert await a.get_many([1, 2]) == {1: Counts(likes=1), 2: Counts(likes=5)}
        await b.increment_if_present({1: Counts(likes=1)})
        assert await a.get_many([1, 2]) == {1: Counts(likes=2), 2: Counts(likes=5)}
        await b.increment_if_present({2: Counts(likes=1)}, sharded={2: 3})  # now hot
        assert await a.get_many([2]) == {2: Counts(likes=6)}
        await b.increment_if_present({2: Counts(comments=1)}, sharded={2: 1})
        assert await a.get_many([1, 2]) == {1: Counts(likes=2), 2: Counts(likes=6, comments=1)}
        await b_client.hincrby(RedisKeys(prefix).counter_shard(2, 1), "l", 1)  # that alone
        assert await a.get_many([2]) == {2: Counts(likes=7, comments=1)}
    finally:
        for near, client in ((a_near, a_client), (b_near, b_client)):
            await near.close()
            await client.aclose()
