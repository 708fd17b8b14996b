"""The worker: relay loop, fan-out consumers per lane, and the counter flusher.

`feedloom worker` runs it as its own process; the embedded default runs it inside
the API process. `process_pending` runs the same steps to completion, once, for tests,
demo seeding and benchmarks.

A consumed batch is handled by `handle_batch`, step by step. An event that fails on its
own `dead_letter_after` times in a row (a poison event) is set aside in the dead
letters with its error (`feedloom events`), so it neither retries forever nor blocks
its lane. Failures of the infrastructure (`is_transient`: Redis or the database away)
are never the event's fault: the batch stays unacknowledged and is delivered again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from feedloom.lookups.counts import CounterBuffer
from feedloom.lookups.signals import EngagementSignals
from feedloom.lookups.spikes import Spikes
from feedloom.metrics import Metrics
from feedloom.ports import (
    Clock,
    DeadLetters,
    Delivery,
    EventQueue,
    IdempotencyKeys,
    Lane,
    Outbox,
)
from feedloom.write import consumers
from feedloom.write.content_check import ScreenPosts
from feedloom.write.counting import ReconcileCounts
from feedloom.write.fan_out import FanOut
from feedloom.write.media_jobs import MediaJobs
from feedloom.write.notifications import FoldNotifications
from feedloom.write.relay_outbox import RelayOutbox
from feedloom.write.webhooks import WebhookEvents, WebhookSender

log = logging.getLogger(__name__)
LANES: tuple[Lane, ...] = ("default", "bulk")
IDLE_SLEEP_S = 0.05
# Events per consumed batch, by lane. A default-lane batch of 1,000 posts gives each
# timeline several of them, which the Redis store inserts in one touch (docs/REDIS.md,
# "Fan-out in few round trips"); it is that big only under a backlog. A bulk-lane post
# reaches 1,000+ followers each: its batches stay small, so a worker that dies holding
# one leaves little to redo (a live one keeps its batch however long it takes:
# `EventQueue.working_on`).
CONSUME_BATCH: dict[Lane, int] = {"default": 1000, "bulk": 100}
MAINTENANCE_INTERVAL_S = 3600.0
SPIKES_EVERY_S = 60.0
LOST_CHECK_S = 5.0  # how often the relay looks for events of a lost stream
Step = Callable[[], Awaitable[int]]


def consumer_name(index: int) -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{index}"


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    counter_flush_s: float
    idempotency_ttl: timedelta
    dead_letter_after: int = 3
    is_transient: Callable[[BaseException], bool] = lambda error: False


@dataclass(frozen=True, slots=True)
class FanOutLedger:
    """Where a batch's outcome is written down: done in the outbox, dead letters."""

    outbox: Outbox
    dead_letters: DeadLetters
    metrics: Metrics


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
        ledger: FanOutLedger,
    ) -> None:
        self._relay, self._fan_out, self._queue = relay, fan_out, queue
        self._ledger = ledger
        self._buffer = buffer
        self._idempotency, self._reconcile = idempotency, reconcile
        self._clock, self._config = clock, config
        self.media_jobs: MediaJobs | None = None  # the media pipeline's background job
        self.screen: ScreenPosts | None = None  # the content check before fan-out
        self.signals: EngagementSignals | None = None  # trending and spikes, batched
        self.spikes: Spikes | None = None  # keeps the spike gauge current
        # Webhooks (write/webhooks.py): deliveries stored from the events handled here,
        # sent by a loop of their own, so no receiver ever holds fan-out up.
        self.webhooks: WebhookEvents | None = None
        self.webhook_sender: WebhookSender | None = None
        self.notifications: FoldNotifications | None = None  # folded beside the fan-out

    async def consume_once(self, lane: Lane, consumer: str, block_ms: int) -> int:
        deliveries = await self._queue.consume(lane, consumer, CONSUME_BATCH[lane], block_ms)
        if deliveries:
            # However long the batch takes, no other worker takes it over meanwhile.
            async with self._queue.working_on(consumer, deliveries):
                await self.handle_batch(deliveries)
        return len(deliveries)

    async def handle_batch(self, deliveries: Sequence[Delivery]) -> None:
        """One consumed batch of one lane, in order. A step that must run before the
        fan-out (a content check, say) goes in front of `_fan_out_or_set_aside`."""
        passed = deliveries if self.screen is None else await self.screen(deliveries)
        if self.webhooks is not None:
            # Before any event leaves the outbox (folding notifications deletes theirs):
            # a crash after this hands them out again, and a delivery stored twice is
            # one (unique per webhook and event).
            await self.webhooks([delivery.event for delivery in passed])
        await self._fan_out_or_set_aside(passed)
        await self._ledger.outbox.done([delivery.event.seq for delivery in deliveries])
        await self._queue.ack(deliveries)
        self._count_handled(deliveries)

    async def _fan_out_or_set_aside(self, deliveries: Sequence[Delivery]) -> None:
        """The whole batch at once; if that fails for the events' sake, each alone,
        so one poison event costs its batch a retry, never its fan-out."""
        try:
            await self._handle(deliveries)
            return
        except Exception as error:
            if self._config.is_transient(error):
                raise
            log.warning("fan-out batch of %d failed; trying each alone", len(deliveries))
        for delivery in deliveries:
            await self._fan_out_alone(delivery)

    async def _fan_out_alone(self, delivery: Delivery) -> None:
        attempts = self._config.dead_letter_after
        for _ in range(attempts):
            try:
                await self._handle([delivery])
                return
            except Exception as error:
                if self._config.is_transient(error):
                    raise
                failure = error
        await self._set_aside(delivery, attempts, failure)

    async def _handle(self, deliveries: Sequence[Delivery]) -> None:
        await self._fan_out.handle(deliveries)
        if self.notifications is not None:
            await self.notifications.handle(deliveries)

    async def _set_aside(self, delivery: Delivery, attempts: int, error: Exception) -> None:
        reason = f"{type(error).__name__}: {error}"
        dead_id = await self._ledger.dead_letters.add(
            delivery.event, delivery.lane, attempts, reason[:4000], self._clock()
        )
        self._ledger.metrics.dead_letters.labels(delivery.lane).inc()
        log.error(
            "event %s set aside as dead letter %d after %d tries: %s",
            delivery.event,
            dead_id,
            attempts,
            reason,
            exc_info=error,
        )

    def _count_handled(self, deliveries: Sequence[Delivery]) -> None:
        kinds = Counter(type(delivery.event).__name__ for delivery in deliveries)
        for kind, count in kinds.items():
            self._ledger.metrics.fanout_events.labels(kind).inc(count)

    async def process_pending(self) -> None:
        """Relay, fan out and flush until nothing is left (single-threaded, for tests)."""
        await self._relay.resend_lost()
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

    async def run(self, stop: asyncio.Event, concurrency: int = consumers.IN_PROCESS) -> None:
        """Run until `stop` is set. Each loop survives its own errors: a bad event or a
        flaky connection must not stop fan-out for everyone else."""
        loops = [_forever(stop, "relay", self._relay)]
        loops.append(_forever(stop, "lost-stream check", lambda: self._lost_step(stop)))
        for index in range(concurrency):
            name = consumer_name(index)
            for lane in LANES:
                loops.append(_forever(stop, f"fan-out {lane}", self._consumer_step(lane, name)))
        loops.append(_forever(stop, "counters", lambda: self._flush_step(stop)))
        loops.append(_forever(stop, "maintenance", lambda: self._maintenance_step(stop)))
        if self.media_jobs is not None:
            loops.append(_forever(stop, "media sizes", self.media_jobs.step))
        if self.webhook_sender is not None:
            loops.append(_forever(stop, "webhooks", self.webhook_sender.step))
        if (spikes := self.spikes) is not None:
            loops.append(_forever(stop, "spikes", lambda: _then_wait(spikes.watch, stop)))
        await asyncio.gather(*loops)

    async def run_counter_flusher(self, stop: asyncio.Event) -> None:
        """API processes buffer like/comment deltas too; each flushes its own buffer."""
        await _forever(stop, "counters", lambda: self._flush_step(stop))

    def _consumer_step(self, lane: Lane, name: str) -> Step:
        async def step() -> int:
            return await self.consume_once(lane, name, block_ms=500)

        return step

    async def _lost_step(self, stop: asyncio.Event) -> int:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), LOST_CHECK_S)
        await self._relay.resend_lost()
        return 1

    async def _flush_step(self, stop: asyncio.Event) -> int:
        """Every flush window, and once more at once when stopping: a shutdown neither
        waits out the window nor drops the deltas collected in it."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), self._config.counter_flush_s)
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
