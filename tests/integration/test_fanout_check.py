"""The multi-process test's check (fanout_check.py) tells a late post from a lost one.

It once failed about one run in three with "post P is 0x in follower F's timeline" and
a drained queue: its only check came after the deadline (counted from the kill while
traffic went on), and P's fan-out finished between the timeline reads and the queue
read, or P's event was still in the outbox, which the check did not look at.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from feedloom.bootstrap import Feedloom
from tests.integration.fanout_check import unfinished, wait_until_done
from tests.world import World


async def a_post_in_flight(world: World) -> tuple[dict[int, int], dict[int, set[int]]]:
    """Bob follows Alice and has a timeline; Alice's new post is acknowledged, its
    event still in the outbox. Returns acknowledged posts and followers, as ints."""
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    await world.feed(bob)  # builds Bob's timeline
    post_id = await world.post(alice)
    return {int(post_id): int(alice.id)}, {int(alice.id): {int(bob.id)}}


async def test_a_fan_out_finishing_during_the_check_is_reported_in_flight_not_lost(
    world: World, feedloom: Feedloom, monkeypatch: pytest.MonkeyPatch
) -> None:
    acknowledged, followers = await a_post_in_flight(world)
    read = feedloom.caches.timelines.read

    async def read_then_let_the_worker_finish(
        user_id: int, before: int | None, limit: int
    ) -> list[int] | None:
        ids = await read(user_id, before, limit)
        await feedloom.services.worker.process_pending()  # relay + fan-out, right after this read
        return ids

    monkeypatch.setattr(feedloom.caches.timelines, "read", read_then_let_the_worker_finish)
    problems = await unfinished(feedloom, acknowledged, followers)
    assert any("is 0x in follower" in problem for problem in problems), problems
    assert any(problem.startswith("events not yet handled") for problem in problems), problems


async def test_a_post_acknowledged_long_after_the_kill_still_gets_the_bound(
    world: World, feedloom: Feedloom
) -> None:
    acknowledged, followers = await a_post_in_flight(world)

    async def worker_catches_up() -> None:
        await asyncio.sleep(0.2)
        await world.settle()

    catching_up = asyncio.create_task(worker_catches_up())
    now = time.monotonic()
    problems = await wait_until_done(
        feedloom, acknowledged, followers, killed_at=now - 60, last_acknowledged=now, bound_s=5
    )
    await catching_up
    assert problems == []
