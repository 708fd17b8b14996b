"""Contract: the event log between relay and fan-out workers (EventQueue).

Every adapter: lanes, batches, acknowledgement, lag, a batch worked on. Redis only: what
a durable, shared log adds (several workers, a worker that dies mid-batch, a slow batch
kept by its live worker, a lost stream).
"""

from __future__ import annotations

import asyncio

import pytest

from feedloom.adapters.redis.event_queue import RedisEventQueue
from feedloom.domain.model import AccountErased, Event, PostDeleted, PostEdited, PostPublished
from feedloom.ports import Delivery, EventQueue, Lane
from tests.contract.conftest import Caches

FIRST, SECOND, GONE = PostPublished(1, 10), PostPublished(2, 10), PostDeleted(3, 11)


async def drain(queue: EventQueue, lane: Lane = "default", consumer: str = "w1") -> list[Delivery]:
    got: list[Delivery] = []
    while batch := await queue.consume(lane, consumer, 10, 20):
        got.extend(batch)
    return got


async def test_events_come_back_in_order_with_their_lane(caches: Caches) -> None:
    queue = caches.queue()
    await queue.publish([FIRST, GONE], "default")
    await queue.publish([SECOND], "bulk")
    assert [(d.event, d.lane) for d in await drain(queue)] == [
        (FIRST, "default"),
        (GONE, "default"),
    ]
    assert [(d.event, d.lane) for d in await drain(queue, "bulk")] == [(SECOND, "bulk")]


async def test_webhook_only_events_come_back_whole(caches: Caches) -> None:
    queue = caches.queue()
    events: list[Event] = [PostEdited(4, 10, seq=5), AccountErased(10, 99, "ext-10", seq=6)]
    await queue.publish(events, "default")
    assert [d.event for d in await drain(queue)] == events


async def test_a_busy_bulk_lane_never_holds_up_the_default_lane(caches: Caches) -> None:
    queue = caches.queue()
    await queue.publish([PostPublished(n, 10) for n in range(50)], "bulk")
    await queue.publish([FIRST], "default")
    assert [d.event for d in await queue.consume("default", "w1", 10, 20)] == [FIRST]
    assert (await queue.lag())["bulk"] == 50


async def test_a_consume_takes_at_most_count_events(caches: Caches) -> None:
    queue = caches.queue()
    await queue.publish([PostPublished(n, 10) for n in range(5)], "default")
    assert len(await queue.consume("default", "w1", 3, 20)) == 3
    assert len(await queue.consume("default", "w1", 3, 20)) == 2


async def test_lag_counts_waiting_then_unacked_then_nothing(caches: Caches) -> None:
    queue = caches.queue()
    await queue.publish([FIRST, SECOND], "default")
    await queue.publish([GONE], "bulk")
    assert await queue.lag() == {"default": 2, "bulk": 1, "unacked": 0}
    deliveries = await queue.consume("default", "w1", 10, 20)
    assert await queue.lag() == {"default": 0, "bulk": 1, "unacked": 2}
    await queue.ack(deliveries)
    await queue.ack(await drain(queue, "bulk"))
    assert await queue.lag() == {"default": 0, "bulk": 0, "unacked": 0}


async def test_an_empty_lane_answers_nothing_after_the_block_time(caches: Caches) -> None:
    queue = caches.queue()
    assert await asyncio.wait_for(queue.consume("default", "w1", 10, 50), timeout=60) == []


async def test_a_batch_worked_on_is_acknowledged_inside_and_its_error_comes_out_as_raised(
    caches: Caches,
) -> None:
    queue = caches.queue()
    await queue.publish([FIRST, SECOND], "default")
    [first, second] = await queue.consume("default", "w1", 10, 20)
    async with queue.working_on("w1", [first]):
        await queue.ack([first])
    with pytest.raises(LookupError):
        async with queue.working_on("w1", [second]):
            raise LookupError("the batch failed")
    assert await queue.lag() == {"default": 0, "bulk": 0, "unacked": 1}


# -- Redis only: a log shared by several worker processes ------------------------


def worker_queue(
    caches: Caches, claim_idle_ms: int = 30_000, heartbeat_s: float = 1.0
) -> RedisEventQueue:
    assert caches.client is not None and caches.keys is not None
    return RedisEventQueue(
        caches.client, caches.keys, claim_idle_ms, claim_every_s=0, heartbeat_s=heartbeat_s
    )


async def test_a_dead_workers_unacked_events_are_reclaimed_by_another(
    redis_caches: Caches,
) -> None:
    # 2 s, not less: the first look must come before the claim time even on a loaded
    # machine or a cluster (a 50 ms window was taken over early there).
    dead, alive = worker_queue(redis_caches, 2_000), worker_queue(redis_caches, 2_000)
    await dead.publish([FIRST, SECOND], "default")
    taken = await dead.consume("default", "dies", 10, 20)
    await dead.ack(taken[:1])  # acknowledged FIRST, then died holding SECOND
    assert await alive.consume("default", "lives", 10, 20) == []  # not idle long enough
    await asyncio.sleep(2.1)
    reclaimed = await alive.consume("default", "lives", 10, 20)
    assert [d.event for d in reclaimed] == [SECOND]
    await alive.ack(reclaimed)
    assert await alive.lag() == {"default": 0, "bulk": 0, "unacked": 0}


async def test_a_live_workers_slow_batch_is_never_taken_over_a_failed_one_is(
    redis_caches: Caches,
) -> None:
    # Claimed after 1 s idle; the working worker touches its batch every 0.1 s.
    slow, other = (worker_queue(redis_caches, 1_000, heartbeat_s=0.1) for _ in range(2))
    await slow.publish([FIRST], "default")
    taken = await slow.consume("default", "slow", 10, 20)
    async with slow.working_on("slow", taken):
        for _ in range(15):  # 3 s of work: three times the claim time
            await asyncio.sleep(0.2)
            assert await other.consume("default", "other", 10, 20) == []
    # Out of `working_on` unacknowledged (the batch failed): delivered again once idle.
    await asyncio.sleep(1.2)
    again = await other.consume("default", "other", 10, 20)
    assert [d.event for d in again] == [FIRST]


async def test_workers_in_the_group_share_the_events_each_once(redis_caches: Caches) -> None:
    one, two = worker_queue(redis_caches), worker_queue(redis_caches)
    events = [PostPublished(n, 10) for n in range(40)]
    await one.publish(events, "default")
    first = await one.consume("default", "one", 15, 20)
    rest = await drain(two, consumer="two")
    assert sorted(d.event.post_id for d in first + rest) == list(range(40))


async def test_acknowledged_events_leave_the_stream(redis_caches: Caches) -> None:
    queue = worker_queue(redis_caches)
    await queue.publish([FIRST, SECOND], "default")
    await queue.ack(await drain(queue))
    assert redis_caches.client is not None and redis_caches.keys is not None
    assert await redis_caches.client.xlen(redis_caches.keys.stream("default")) == 0


async def test_a_lost_stream_is_recreated_and_new_events_flow(redis_caches: Caches) -> None:
    queue = worker_queue(redis_caches)
    await queue.publish([FIRST], "default")
    assert redis_caches.client is not None and redis_caches.keys is not None
    await redis_caches.client.delete(redis_caches.keys.stream("default"))  # Redis lost it
    assert await queue.consume("default", "w1", 10, 20) == []
    await queue.publish([SECOND], "default")
    assert [d.event for d in await drain(queue)] == [SECOND]
    assert await queue.lag() == {"default": 0, "bulk": 0, "unacked": 1}
