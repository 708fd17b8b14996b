"""The near cache of views (adapters/redis/wire/near_cache.py): views kept in process, never
staler than Redis. Each "process" here is a client and a near cache of its own on one
key prefix, as two API processes of a deployment are."""

from __future__ import annotations

import asyncio
import inspect
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from feedloom.adapters.redis import caches as redis_caches
from feedloom.adapters.redis.caches import (
    NEAR_RECORD_BYTES,
    RAW,
    RedisCounterStore,
    RedisRecordCache,
    RedisViewCache,
    near_record_size,
)
from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.sketches import RedisViewerSketches
from feedloom.adapters.redis.wire import Address, RedisClient, near_cache, open_client
from feedloom.adapters.redis.wire.near_cache import NearCache
from feedloom.adapters.redis.wire.resp import RespConnection, connect
from feedloom.domain.model import Counts
from tests.servers import REDIS_URL, scratch_redis_prefix

pytestmark = pytest.mark.redis


@dataclass
class Process:
    client: RedisClient
    near: NearCache
    views: RedisViewCache[bytes]
    likes: RedisRecordCache
    sketches: RedisViewerSketches
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
    region = near.region(keys.kind_prefix("post"), limit=limit)
    process = Process(
        client,
        near,
        RedisViewCache(client, keys, "post", RAW, near=region),
        RedisRecordCache(
            client,
            keys,
            "lk",
            near=near.region(keys.generation_prefix("lk"), sizeof=near_record_size),
        ),
        RedisViewerSketches(client, keys, near=near.region(keys.viewers_prefix())),
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


def _spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, note: Callable[..., Any]) -> None:
    """`note` gets the arguments of each call of `owner.name`, which then runs as ever."""
    original = getattr(owner, name)
    if inspect.iscoroutinefunction(original):

        async def spied_async(*args: Any) -> Any:
            note(*args)
            return await original(*args)

        monkeypatch.setattr(owner, name, spied_async)
    else:

        def spied(*args: Any) -> Any:
            note(*args)
            return original(*args)

        monkeypatch.setattr(owner, name, spied)


def _count_fetches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Keys each Redis read of views (or records) asked for."""
    asked: list[int] = []
    _spy(monkeypatch, redis_caches, "_get_all", lambda _client, names: asked.append(len(names)))
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
    opened = connect

    async def slow_connect(address: Address, on_message: Any = None) -> RespConnection:
        connection = await opened(address, on_message)
        received, late = connection.data_received, deque[bytes]()

        def deliver() -> None:
            received(late.popleft())

        def slow(data: bytes) -> None:
            late.append(data)
            asyncio.get_running_loop().call_later(0.05, deliver)

        connection.data_received = slow  # type: ignore[method-assign]
        return connection

    monkeypatch.setattr(near_cache, "connect", slow_connect)


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


async def test_a_read_fences_once_as_it_begins_and_its_lookups_share_that_fence(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A feed page marks itself a read (ports.ReadFreshness): its fence goes out as it
    begins, beside its first round trip, and still shows it every write completed
    before it began, however late that write's invalidation arrives."""
    a, b = two
    await b.views.set_many({1: b"old"})
    assert await a.near.fence()  # its invalidation applied: what a reads now is kept
    assert await a.views.get_many([1]) == {1: b"old"}
    _deliver_late(monkeypatch)
    fences = _count_fences(monkeypatch)
    await b.views.set_many({1: b"new"})
    with a.near.read():
        assert await a.views.get_many([1]) == {1: b"new"}
        await b.views.set_many({1: b"during the read"})
        assert await a.views.get_many([1]) in ({1: b"new"}, {1: b"during the read"})
    assert fences == [1]
    await b.views.set_many({1: b"after the read"})
    assert await a.views.get_many([1]) == {1: b"after the read"}  # a fence of its own
    assert fences == [1, 1]


def _count_fences(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    fences: list[int] = []
    _spy(monkeypatch, NearCache, "fence", lambda _near: fences.append(1))
    return fences


async def test_likes_records_are_kept_until_another_process_changes_them(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    await b.likes.put("7", b"first", 0)
    assert await a.near.fence()  # its invalidation applied: what a reads now is kept
    assert await a.likes.get_many(["7", "8"]) == [(b"first", 0), (None, 0)]
    asked = _count_fetches(monkeypatch)
    assert await a.likes.get_many(["7"]) == [(b"first", 0)]
    assert asked == []  # kept
    _deliver_late(monkeypatch)
    await b.likes.append_if_present("7", b"+second")
    [(record, _)] = await a.likes.get_many(["7"])
    assert record == b"first+second"
    await b.likes.invalidate(["7"])
    [(record, generation)] = await a.likes.get_many(["7"])
    assert record is None and generation == 2  # the append's bump, then the drop's
    long = b"x" * (NEAR_RECORD_BYTES + 1)
    await a.likes.put("7", long, generation)
    asked.clear()
    for _ in range(2):
        assert await a.likes.get_many(["7"]) == [(long, generation)]
    assert asked == [2, 2]  # too long to keep: read from Redis each time


async def test_viewer_estimates_are_kept_and_every_new_viewer_is_counted(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader counted lately on every post of a page asks Redis nothing; a reader not
    counted yet is counted (a write), kept estimate or not; another process' count is
    seen on the next read."""
    a, b = two
    assert await a.sketches.served(1, [10, 11]) == {10: 1, 11: 1}  # counted: a write
    assert await a.near.fence()  # the count's own invalidations are in
    asked = _count_served(monkeypatch)
    assert await a.sketches.served(1, [10, 11]) == {10: 1, 11: 1}
    assert asked == []  # the estimates the count returned, kept
    _deliver_late(monkeypatch)
    assert await b.sketches.served(2, [10]) == {10: 2}
    assert await a.sketches.served(1, [10, 11]) == {10: 2, 11: 1}
    assert await a.sketches.served(3, [11]) == {11: 2}
    # b counting 2 on 10; a reading 10 again (changed); a counting 3 on 11 (kept)
    assert asked == [[10], [10], [11]]
    assert await a.near.fence()
    assert await a.sketches.served(1, [10, 11]) == {10: 2, 11: 2}
    assert asked == [[10], [10], [11]]  # 11's estimate after counting 3, kept


def _count_served(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The posts each call of the viewers script (or its cluster steps) was for."""
    asked: list[list[int]] = []

    def note(_sketches: RedisViewerSketches, _viewer: int, post_ids: Sequence[int], _: Any) -> None:
        asked.append(list(post_ids))

    _spy(monkeypatch, RedisViewerSketches, "_serve", note)
    return asked


async def test_a_fill_is_kept_by_its_process_until_the_record_changes_anywhere(
    two: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fill leaves the generation be, so the filling process keeps its own copy (the
    second read of a reader whose record the first read built costs no round trip for
    it); a change made by another process bumps the generation and drops it."""
    a, b = two
    await b.likes.invalidate(["9"])  # a generation to guard against, as after a write
    [(record, generation)] = await a.likes.get_many(["9"])
    assert record is None and generation == 1
    await a.likes.put("9", b"built", generation)
    asked = _count_fetches(monkeypatch)
    assert await a.likes.get_many(["9"]) == [(b"built", 1)]
    assert asked == []  # the fill's own copy
    await b.likes.append_if_present("9", b"+more")
    assert await a.likes.get_many(["9"]) == [(b"built+more", 2)]
    assert asked == [2]
    await b.likes.invalidate(["9"])
    assert await a.likes.get_many(["9"]) == [(None, 3)]
    stale = await a.likes.get_many(["9"])
    await b.likes.invalidate(["9"])  # a write between a's miss and a's fill
    await a.likes.put("9", b"stale", stale[0][1])  # refused: the generation moved
    assert await a.likes.get_many(["9"]) == [(None, 4)]
