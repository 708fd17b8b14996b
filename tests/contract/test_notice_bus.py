"""NoticeBus contract, in-process and Redis pub/sub: a listener gets the notices of its
topics only, a slow listener is dropped without holding up publishers, and a closed
listener gets nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from feedloom.adapters.memory.notices import MemoryNoticeBus
from feedloom.adapters.redis.notices import RedisNoticeBus
from feedloom.ports import NoticeBus
from tests.servers import REDIS_URL, scratch_redis_prefix

QUEUE = 4


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def bus(request: pytest.FixtureRequest) -> AsyncIterator[NoticeBus]:
    if request.param == "memory":
        yield MemoryNoticeBus(queue_size=QUEUE)
        return
    async with scratch_redis_prefix() as prefix:
        redis_bus = RedisNoticeBus(Redis.from_url(REDIS_URL), prefix, queue_size=QUEUE)
        try:
            yield redis_bus
        finally:
            await redis_bus.aclose()


async def publish_until_heard(bus: NoticeBus, topics: list[str], post_id: int) -> None:
    """A Redis SUBSCRIBE is confirmed asynchronously: give it a moment, then publish
    once (publishing again until heard would hide a lost notice)."""
    await asyncio.sleep(0.2)
    await bus.publish(topics, post_id)


async def test_a_listener_gets_the_notices_of_its_topics_only(bus: NoticeBus) -> None:
    async with bus.listen(["u:1", "a:9"]) as listener:
        await publish_until_heard(bus, ["u:2"], 100)
        await bus.publish(["u:1"], 101)
        await bus.publish(["a:9", "u:1"], 102)
        assert await listener.next(5.0) == 101
        assert await listener.next(5.0) == 102
        # A notice published to two of its topics may arrive once per topic (Redis
        # sends one message each): notices are hints, the stream recounts anyway.
        assert not listener.dropped


async def test_every_listener_of_a_topic_gets_the_notice(bus: NoticeBus) -> None:
    async with bus.listen(["u:1"]) as first, bus.listen(["u:1"]) as second:
        await publish_until_heard(bus, ["u:1"], 7)
        assert await first.next(5.0) == 7 and await second.next(5.0) == 7


async def test_a_slow_listener_is_dropped_and_publishing_never_waits(bus: NoticeBus) -> None:
    async with bus.listen(["u:1"]) as slow, bus.listen(["u:1"]) as fast:
        await asyncio.sleep(0.2)
        for post_id in range(QUEUE + 3):
            await asyncio.wait_for(bus.publish(["u:1"], post_id), 2.0)
            assert await fast.next(5.0) == post_id
        for _ in range(100):  # Redis delivers through a reader task: up to 5 s
            if slow.dropped:
                break
            await asyncio.sleep(0.05)
        assert slow.dropped and not fast.dropped
        assert await slow.next(0.1) is None


async def test_a_closed_listener_gets_nothing_more(bus: NoticeBus) -> None:
    async with bus.listen(["u:1"]) as listener:
        await asyncio.sleep(0.2)
    await bus.publish(["u:1"], 5)
    assert await listener.next(0.2) is None


async def test_a_batch_of_runs_reaches_the_listeners_of_its_keys_only(bus: NoticeBus) -> None:
    async with bus.listen(["u:1"]) as one, bus.listen(["u:3", "a:1"]) as three:
        await asyncio.sleep(0.2)  # the subscription is confirmed asynchronously
        await bus.publish_many("u:", [(200, [2]), (201, [4, 1, 2]), (202, (3,)), (203, [1])])
        assert [await one.next(5.0), await one.next(5.0)] == [201, 203]
        assert await three.next(5.0) == 202
        assert await three.next(0.3) is None  # a:1 is not u:1
    await bus.publish_many("u:", [(300, [1])])  # nobody listens: nothing to do
