"""In-process event queue for the embedded default: one asyncio queue per lane.

Delivery is at-most-once within the process; that is enough here because the
timelines it feeds live in the same process and are rebuilt after a restart anyway.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence

from feedloom.domain.model import Event
from feedloom.ports import Delivery, Lane


class MemoryEventQueue:
    def __init__(self) -> None:
        self._lanes: dict[str, asyncio.Queue[Delivery]] = {
            "default": asyncio.Queue(),
            "bulk": asyncio.Queue(),
        }
        self._receipts = itertools.count(1)
        self._unacked = 0

    async def publish(self, events: Sequence[Event], lane: Lane) -> None:
        for event in events:
            self._lanes[lane].put_nowait(Delivery(event, lane, str(next(self._receipts))))

    async def consume(self, lane: Lane, consumer: str, count: int, block_ms: int) -> list[Delivery]:
        queue = self._lanes[lane]
        if queue.empty():
            try:
                first = await asyncio.wait_for(queue.get(), timeout=block_ms / 1000)
            except TimeoutError:
                return []
            batch = [first]
        else:
            batch = []
        while len(batch) < count and not queue.empty():
            batch.append(queue.get_nowait())
        self._unacked += len(batch)
        return batch

    async def ack(self, deliveries: Sequence[Delivery]) -> None:
        self._unacked -= len(deliveries)

    async def lag(self) -> dict[str, int]:
        lag = {lane: queue.qsize() for lane, queue in self._lanes.items()}
        lag["unacked"] = self._unacked
        return lag
