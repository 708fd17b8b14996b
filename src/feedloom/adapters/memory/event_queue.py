"""In-process event queue for the embedded default: one asyncio queue per lane.

Delivery is at-most-once within the process; nothing is lost across a restart all the
same, because the outbox keeps every event until its fan-out is done: a new process is
a new epoch, and the relay re-sends what the old one never finished. No other process
consumes, so nothing is ever taken over: `working_on` only runs its body.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
import uuid
from collections.abc import AsyncIterator, Sequence

from feedloom.domain.model import Event
from feedloom.ports import Delivery, Lane

Queued = tuple[float, Delivery]  # when it was queued (monotonic), the delivery


class MemoryEventQueue:
    def __init__(self) -> None:
        self._lanes: dict[str, asyncio.Queue[Queued]] = {
            "default": asyncio.Queue(),
            "bulk": asyncio.Queue(),
        }
        self._receipts = itertools.count(1)
        self._unacked = 0
        self._epoch = uuid.uuid4().hex  # this queue lives as long as its process

    async def publish(self, events: Sequence[Event], lane: Lane) -> None:
        now = time.monotonic()
        for event in events:
            delivery = Delivery(event, lane, str(next(self._receipts)))
            self._lanes[lane].put_nowait((now, delivery))

    async def consume(self, lane: Lane, consumer: str, count: int, block_ms: int) -> list[Delivery]:
        queue = self._lanes[lane]
        if queue.empty():
            try:
                first = await asyncio.wait_for(queue.get(), timeout=block_ms / 1000)
            except TimeoutError:
                return []
            batch = [first[1]]
        else:
            batch = []
        while len(batch) < count and not queue.empty():
            batch.append(queue.get_nowait()[1])
        self._unacked += len(batch)
        return batch

    @contextlib.asynccontextmanager
    async def working_on(
        self, consumer: str, deliveries: Sequence[Delivery]
    ) -> AsyncIterator[None]:
        yield

    async def ack(self, deliveries: Sequence[Delivery]) -> None:
        self._unacked -= len(deliveries)

    async def lag(self) -> dict[str, int]:
        lag = {lane: queue.qsize() for lane, queue in self._lanes.items()}
        lag["unacked"] = self._unacked
        return lag

    async def epochs(self) -> dict[str, str]:
        return {lane: self._epoch for lane in self._lanes}

    async def oldest_age_s(self) -> dict[str, float]:
        now = time.monotonic()
        ages = {}
        for lane, queue in self._lanes.items():
            waiting: list[Queued] = list(queue._queue)  # type: ignore[attr-defined]  # FIFO
            ages[lane] = now - waiting[0][0] if waiting else 0.0
        return ages
