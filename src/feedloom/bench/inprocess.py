"""`bench fanout --in-process`: the fan-out worker alone, without HTTP.

The throughput goal of issue 3 (timeline inserts per second by ONE worker process) is
about the worker, so this measures exactly that, in this process: import the graph,
build every user's (empty) home timeline, store one post per user with its outbox event,
and only then start the worker (`run_worker`: relay + fan-out consumers) and time it
until the outbox and every queue lane are empty. The store is whatever the settings
name: SQLite + in-process caches, or PostgreSQL + Redis.

With `conversations`, each user's one entry is the conversational workload's
(bench/conversations.py: replies, reposts, posts). Either way the SQL statements the
worker issues are counted: the reply rule is applied with the batch's relations read
once, so statements grow with batches, never with followers.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from feedloom.api.serving import settle_heap
from feedloom.bench import conversations as talk
from feedloom.bench.probe import TIMELINE_WRITES
from feedloom.bench.stores import redis_cpu_seconds
from feedloom.bench.users import BENCH_WORKER_ID, store_posts
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.capacity.graph import Edge
from feedloom.settings import Settings

# Each poll costs the worker a little (it shares this event loop): 20 polls a second.
POLL_S = 0.05


@dataclass(frozen=True)
class InProcessRun:
    posts: int
    setup_s: float  # import + timelines + storing the posts (not measured work)
    timeline_writes: float
    seconds: float  # worker start -> outbox and queues empty
    cpu_s: float  # CPU time of this process meanwhile (not PostgreSQL's or Redis')
    redis_cpu_s: float | None = None  # Redis' (every primary's) meanwhile; None embedded
    sql_statements: int = 0  # issued by this process while the worker ran
    shares: dict[str, float] | None = None  # with conversations: reposts, replies

    @property
    def inserts_per_second(self) -> float:
        return self.timeline_writes / self.seconds if self.seconds else 0.0


async def run_in_process(
    settings: Settings, edges: list[Edge], worker_concurrency: int, conversations: bool = False
) -> InProcessRun:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        started = time.monotonic()
        imported = await feedloom.services.graph_import.run(
            edges, "not-a-login", build_timelines=True
        )
        authors = list(imported.user_ids.values())
        shares = None
        if conversations:
            shares = await _store_conversations(feedloom, edges, imported.user_ids)
        else:
            await store_posts(feedloom, authors, 1)
        setup_s = time.monotonic() - started
        # As `feedloom worker` does once built: the bench's graph (1.6 M edges on the
        # peers' workload) is no worker's heap, and full collections walked it.
        settle_heap()
        redis_before = await redis_cpu_seconds(settings)
        before, cpu_before = _timeline_writes(feedloom), time.process_time()
        with _statements() as statements:
            seconds = await _drain(feedloom, worker_concurrency)
        writes, cpu_s = _timeline_writes(feedloom) - before, time.process_time() - cpu_before
        redis_after = await redis_cpu_seconds(settings)
        redis = None if redis_after is None or redis_before is None else redis_after - redis_before
        return InProcessRun(
            len(authors), setup_s, writes, seconds, cpu_s, redis, statements[0], shares
        )


async def _store_conversations(
    feedloom: Feedloom, edges: list[Edge], user_ids: dict[str, int]
) -> dict[str, float]:
    """Each user's entry of the conversational workload, users taken in the order of
    their CSV IDs (the peers' workload numbers them 0..N-1, as bench read does)."""
    order = sorted(user_ids, key=lambda csv_id: (len(csv_id), csv_id))
    number = {csv_id: index for index, csv_id in enumerate(order)}
    followees: list[list[int]] = [[] for _ in order]
    for follower, followee in edges:
        followees[number[follower]].append(number[followee])
    acts = talk.plan(followees, seed=42)
    await talk.store_activities(feedloom, acts, {number[u]: i for u, i in user_ids.items()})
    return talk.shares(acts)


@contextlib.contextmanager
def _statements() -> Iterator[list[int]]:
    """SQL statements issued by any engine of this process while the block runs."""
    counted = [0]

    def count(*_args: Any) -> None:
        counted[0] += 1

    event.listen(Engine, "before_cursor_execute", count)
    try:
        yield counted
    finally:
        event.remove(Engine, "before_cursor_execute", count)


async def _drain(feedloom: Feedloom, concurrency: int) -> float:
    stop = asyncio.Event()
    started = time.perf_counter()
    worker = asyncio.create_task(feedloom.services.worker.run(stop, concurrency))
    try:
        # Polling, not an event: "empty" is a property of the store, not a signal.
        while True:
            if not await backlog(feedloom):
                return time.perf_counter() - started
            await asyncio.sleep(POLL_S)
    finally:
        stop.set()
        await worker


async def backlog(feedloom: Feedloom) -> int:
    # The queue first: it is cheap and non-empty for most of the run; the outbox is
    # counted only once the queue looks empty, since relayed events leave it first.
    queued = sum((await feedloom.queue.lag()).values())
    return queued or await feedloom.stores.outbox.pending() + sum(
        (await feedloom.queue.lag()).values()
    )


def _timeline_writes(feedloom: Feedloom) -> float:
    return feedloom.metrics.registry.get_sample_value(TIMELINE_WRITES) or 0.0
