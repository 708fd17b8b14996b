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
from datetime import timedelta

from feedloom.backend import Backend
from feedloom.ports import Lane
from feedloom.write.counting import flush_counts, reconcile_recent_counts
from feedloom.write.fan_out import handle_events
from feedloom.write.relay_outbox import relay_outbox

log = logging.getLogger(__name__)
LANES: tuple[Lane, ...] = ("default", "bulk")
IDLE_SLEEP_S = 0.05
CONSUME_BATCH = 100
MAINTENANCE_INTERVAL_S = 3600.0
Step = Callable[[], Awaitable[int]]


def consumer_name(index: int) -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{index}"


async def consume_once(backend: Backend, lane: Lane, consumer: str, block_ms: int) -> int:
    deliveries = await backend.queue.consume(lane, consumer, CONSUME_BATCH, block_ms)
    await handle_events(backend, deliveries)
    if deliveries:
        await backend.queue.ack(deliveries)
    return len(deliveries)


async def process_pending(backend: Backend) -> None:
    """Relay, fan out and flush until nothing is left (single-threaded, for tests)."""
    while True:
        moved = await relay_outbox(backend)
        handled = 0
        for lane in LANES:
            while count := await consume_once(backend, lane, consumer_name(0), block_ms=1):
                handled += count
        if not moved and not handled:
            break
    await flush_counts(backend.counter_buffer, backend.counters)


async def run_worker(backend: Backend, stop: asyncio.Event, concurrency: int = 1) -> None:
    """Run until `stop` is set. Each loop survives its own errors: a bad event or a
    flaky connection must not stop fan-out for everyone else."""
    loops = [_forever(stop, "relay", lambda: relay_outbox(backend))]
    for index in range(concurrency):
        name = consumer_name(index)
        for lane in LANES:
            loops.append(_forever(stop, f"fan-out {lane}", _consumer_step(backend, lane, name)))
    loops.append(_forever(stop, "counters", lambda: _flush_step(backend)))
    loops.append(_forever(stop, "maintenance", lambda: _maintenance_step(backend, stop)))
    await asyncio.gather(*loops)


async def run_counter_flusher(backend: Backend, stop: asyncio.Event) -> None:
    """API processes buffer like/comment deltas too; each flushes its own buffer."""
    await _forever(stop, "counters", lambda: _flush_step(backend))


def _consumer_step(backend: Backend, lane: Lane, name: str) -> Step:
    async def step() -> int:
        return await consume_once(backend, lane, name, block_ms=500)

    return step


async def _flush_step(backend: Backend) -> int:
    await asyncio.sleep(backend.settings.counter_flush_ms / 1000)
    return await flush_counts(backend.counter_buffer, backend.counters)


async def _maintenance_step(backend: Backend, stop: asyncio.Event) -> int:
    """Hourly: forget Idempotency-Keys past their retention (at least 24 h), and
    repair displayed like/comment counts that drifted from the truth."""
    ttl = timedelta(hours=backend.settings.idempotency_ttl_hours)
    purged = await backend.posts.purge_idempotency_keys(backend.clock() - ttl)
    purged += await reconcile_recent_counts(backend)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), MAINTENANCE_INTERVAL_S)
    return purged or 1


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
