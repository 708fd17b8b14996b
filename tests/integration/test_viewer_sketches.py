"""Distinct-viewer sketches on a real Redis: a viewer this process added lately is not
added again (no PFADD, no EXPIRE), yet a sketch that was lost meanwhile counts them
again at once (adapters/redis/sketches.py `RecentlyCounted`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from feedloom.adapters.redis.keys import RedisKeys
from feedloom.adapters.redis.sketches import RecentlyCounted, RedisViewerSketches
from feedloom.adapters.redis.wire import RedisClient
from tests.servers import scratch_redis_client

pytestmark = pytest.mark.redis


@pytest.fixture
async def redis() -> AsyncIterator[tuple[RedisClient, RedisKeys]]:
    async with scratch_redis_client() as (client, prefix):
        yield client, RedisKeys(prefix)


async def test_serving_a_viewer_again_soon_does_not_touch_the_sketch(
    redis: tuple[RedisClient, RedisKeys],
) -> None:
    client, keys = redis
    sketches = RedisViewerSketches(client, keys)
    assert await sketches.served(7, [1, 2]) == {1: 1, 2: 1}
    await client.expire(keys.viewers(1), 100)  # a PFADD + EXPIRE would push it back
    assert await sketches.served(7, [1, 2]) == {1: 1, 2: 1}
    assert 0 < await client.ttl(keys.viewers(1)) <= 100
    assert await sketches.served(8, [1]) == {1: 2}  # another viewer still counts
    assert await client.ttl(keys.viewers(1)) > 100


async def test_a_lost_sketch_counts_the_viewer_again_at_once(
    redis: tuple[RedisClient, RedisKeys],
) -> None:
    client, keys = redis
    sketches = RedisViewerSketches(client, keys)
    assert await sketches.served(7, [1]) == {1: 1}
    await client.delete(keys.viewers(1))  # Redis lost it (restart, eviction, expiry)
    assert await sketches.served(7, [1]) == {1: 1}
    assert await client.ttl(keys.viewers(1)) > 0


def test_pairs_are_added_again_once_their_time_is_up_and_memory_stays_bounded() -> None:
    counted = RecentlyCounted(for_s=0.0, limit=4)
    assert counted.flags(1, [10, 11]) == ["1", "1"]
    counted.remember(1, [10, 11], ["1", "1"])
    assert counted.flags(1, [10, 11]) == ["1", "1"]  # for_s=0: nothing is recent
    lasting = RecentlyCounted(for_s=600.0, limit=4)
    lasting.remember(1, [10, 11, 12, 13, 14], ["1"] * 5)
    assert lasting.flags(1, [13, 14]) == ["0", "0"]  # the newest are kept
    assert lasting.flags(1, [10]) == ["1"]  # the oldest half went when it was full
    assert lasting.flags(2, [13]) == ["1"]  # per viewer
