"""The in-process timeline store answers without suspending, so a big fan-out gives the
event loop back between slices of its inserts (memory/timeline_store.py `YIELD_EVERY`):
other lanes and requests run meanwhile."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from feedloom.adapters.memory.timeline_store import YIELD_EVERY, MemoryTimelineStore


async def test_a_big_fan_out_lets_other_tasks_run_before_it_is_done() -> None:
    store = MemoryTimelineStore(lambda: datetime(2026, 1, 1, tzinfo=UTC), length=10)
    followers = list(range(3 * YIELD_EVERY))
    for user in followers:
        await store.replace(user, [])
    turns = 0

    async def other_lane() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(other_lane())
    await asyncio.sleep(0)  # the other lane has started
    started = turns
    assert await store.insert_many([(7, followers)]) == len(followers)
    other.cancel()
    assert turns - started >= 2  # it ran between the slices, not only after the fan-out
    assert await store.read(followers[-1], None, 5) == [7]
