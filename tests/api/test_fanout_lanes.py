"""Big accounts never delay ordinary posts: while a bulk-lane fan-out is in the middle of
its followers, an ordinary post is fanned out on the default lane (shrunk numbers: the
test settings make 3+ followers a bulk author and insert 3 pairs a chunk)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from feedloom.ports import PostRun
from tests.world import World

BOUND_S = 60.0  # generous on a loaded machine: the assertion is the order, not the time


async def test_an_ordinary_post_fans_out_while_a_big_fan_out_is_held_mid_way(
    world: World,
) -> None:
    big, small = await world.user(), await world.user()
    fans = [await world.user() for _ in range(4)]  # 4 > bulk_above (2), <= pull_above (4)
    for fan in fans:
        await world.feed(fan)
        await world.follow(fan, big)
    await world.follow(fans[0], small)
    timelines = world.feedloom.caches.timelines
    held, release = asyncio.Event(), asyncio.Event()
    insert_many = timelines.insert_many
    big_chunks: list[int] = []

    async def gated(runs: Sequence[PostRun]) -> int:
        if big_post and any(post == int(big_post) for post, _ in runs):
            big_chunks.append(sum(len(owners) for _, owners in runs))
            if len(big_chunks) == 2:  # the author's own timeline, then a first chunk
                held.set()
                await release.wait()
        return await insert_many(runs)

    big_post = ""
    timelines.insert_many = gated  # type: ignore[method-assign]
    stop = asyncio.Event()
    running = asyncio.create_task(world.feedloom.services.worker.run(stop))
    try:
        big_post = await world.post(big, "to many")
        await asyncio.wait_for(held.wait(), BOUND_S)
        small_post = await world.post(small, "to one")
        deadline = time.monotonic() + BOUND_S
        while int(small_post) not in (await timelines.read(int(fans[0].id), None, 10) or []):
            assert time.monotonic() < deadline, "the ordinary post waited for the big one"
            await asyncio.sleep(0.02)
        assert not release.is_set()  # the big fan-out is still held mid-way
        release.set()
        deadline = time.monotonic() + BOUND_S
        while await world.feedloom.stores.outbox.pending():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
    finally:
        release.set()
        stop.set()
        await running
    for fan in fans:
        assert int(big_post) in (await timelines.read(int(fan.id), None, 10) or [])
