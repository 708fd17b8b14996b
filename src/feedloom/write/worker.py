"""The worker: relay loop, fan-out consumers per lane, and the counter flusher.

`feedloom worker` runs it as its own process; the embedded default runs it inside
the API process. `process_pending` runs the same steps to completion, once, for tests,
demo seeding and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from feedloom.lookups.counts import CounterBuffer
from feedloom.lookups.signals import EngagementSignals
from feedloom.lookups.spikes import Spikes
from feedloom.ports import Clock, EventQueue, IdempotencyKeys, Lane
from feedloom.write.content_check import ScreenPosts
from feedloom.write.counting import ReconcileCounts
from feedloom.write.fan_out import FanOut
from feedloom.write.media_jobs import MediaJobs
from feedloom.write.relay_outbox import RelayOutbox

log = logging.getLogger(__name__)
LANES: tuple[Lane, ...] = ("default", "bulk")
IDLE_SLEEP_S = 0.05
CONSUME_BATCH = 100
MAINTENANCE_INTERVAL_S = 3600.0
SPIKES_EVERY_S = 60.0
Step = Callable[[], Awaitable[int]]


def consumer_name(index: int) -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{index}"


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    counter_flush_s: float
    idempotency_ttl: timedelta


class Worker:
    def __init__(
        self,
        relay: RelayOutbox,
        fan_out: FanOut,
        queue: EventQueue,
        buffer: CounterBuffer,
        idempotency: IdempotencyKeys,
        reconcile: ReconcileCounts,
        clock: Clock,
        config: WorkerConfig,
    ) -> None:
        self._relay, self._fan_out, self._queue = relay, fan_out, queue
        self._buffer = buffer
        self._idempotency, self._reconcile = idempotency, reconcile
        self._clock, self._config = clock, config
        self.media_jobs: MediaJobs | None = None  # the media pipeline's background job
        self.screen: ScreenPosts | None = None  # the content check before fan-out
        self.signals: EngagementSignals | None = None  # trending and spikes, batched
        self.spikes: Spikes | None = None  # keeps the spike gauge current

    async def consume_once(self, lane: Lane, consumer: str, block_ms: int) -> int:
        deliveries = await self._queue.consume(lane, consumer, CONSUME_BATCH, block_ms)
        passed = deliveries if self.screen is None else await self.screen(deliveries)
        await self._fan_out.handle(passed)
        if deliveries:
            await self._queue.ack(deliveries)
        return len(deliveries)

    async def process_pending(self) -> None:
        """Relay, fan out and flush until nothing is left (single-threaded, for tests)."""
        while True:
            moved = await self._relay()
            handled = 0
            for lane in LANES:
                while count := await self.consume_once(lane, consumer_name(0), block_ms=1):
                    handled += count
            if not moved and not handled:
                break
        await self.flush_counts()
        if self.media_jobs is not None:
            while await self.media_jobs.once():
                pass

    async def flush_counts(self) -> int:
        flushed = await self._buffer.flush()
        if self.signals is not None:
            flushed += await self.signals.flush()
        return flushed

    async def run(self, stop: asyncio.Event, concurrency: int = 1) -> None:
        """Run until `stop` is set. Each loop survives its own errors: a bad event or a
        flaky connection must not stop fan-out for everyone else."""
        loops = [_forever(stop, "relay", self._relay)]
        for index in range(concurrency):
            name = consumer_name(index)
            for lane in LANES:
                loops.append(_forever(stop, f"fan-out {lane}", self._consumer_step(lane, name)))
        loops.append(_forever(stop, "counters", self._flush_step))
        loops.append(_forever(stop, "maintenance", lambda: self._maintenance_step(stop)))
        if self.media_jobs is not None:
            loops.append(_forever(stop, "media sizes", self.media_jobs.step))
        if (spikes := self.spikes) is not None:
            loops.append(_forever(stop, "spikes", lambda: _then_wait(spikes.watch, stop)))
        await asyncio.gather(*loops)

    async def run_counter_flusher(self, stop: asyncio.Event) -> None:
        """API processes buffer like/comment deltas too; each flushes its own buffer."""
        await _forever(stop, "counters", self._flush_step)

    def _consumer_step(self, lane: Lane, name: str) -> Step:
        async def step() -> int:
            return await self.consume_once(lane, name, block_ms=500)

        return step

    async def _flush_step(self) -> int:
        await asyncio.sleep(self._config.counter_flush_s)
        return await self.flush_counts()

    async def _maintenance_step(self, stop: asyncio.Event) -> int:
        """Hourly: forget Idempotency-Keys past their retention (at least 24 h), and
        repair displayed like/comment counts that drifted from the truth (every post
        engaged with since the last run)."""
        cutoff = self._clock() - self._config.idempotency_ttl
        purged = await self._idempotency.purge_idempotency_keys(cutoff)
        purged += await self._reconcile.engaged()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), MAINTENANCE_INTERVAL_S)
        return purged or 1


async def _then_wait(step: Step, stop: asyncio.Event) -> int:
    done = await step()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), SPIKES_EVERY_S)
    return done


async def _forever(stop: asyncio.Event, name: str, step: Step) -> None:
    while not stop.is_set():
        try:
            if not await step():
                await asyncio.sleep(IDLE_SLEEP_S)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s loop failed; retrying", name)
            await asyncio.sleep(1.0)
