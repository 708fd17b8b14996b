"""`feedloom bench likes`: one hot post liked by many distinct users, as fast as the
machine sustains, through feedloom's whole like path (visibility check, the unique
(post, user) row, the counter buffer and its sharded sub-counters, affinity, trending).

Measured: likes accepted per second; lock waits in PostgreSQL (sessions waiting on a
lock, sampled every few milliseconds by a connection of its own: none expected, no
like updates a shared row); the displayed count against the true count after the
final flush, and again after a reconciliation run (both must be equal).

In the same run, on the same database, the naive peer: each like inserts its row and
`UPDATE ... SET likes = likes + 1` on one counter row in one transaction, the hot row
lock DESIGN.md section 9 warns of. Its likes/s and lock waits are the baseline.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.database import create_database
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.model import Visibility
from feedloom.gather import bounded
from feedloom.ports import NewUser
from feedloom.settings import Settings

SAMPLE_EVERY_S = 0.005
LOCK_WAITERS = (
    "SELECT count(*) FROM pg_stat_activity "
    "WHERE wait_event_type = 'Lock' AND datname = current_database()"
)


@dataclass(frozen=True)
class Run:
    likes: int
    wall_s: float
    lock_samples: int  # samples taken
    lock_waiting_samples: int  # samples that saw a session waiting on a lock
    max_waiting: int  # most sessions seen waiting at once
    cpu_s: float  # this process's CPU time (the database and Redis are other processes)

    @property
    def likes_per_s(self) -> float:
        return self.likes / self.wall_s


@dataclass(frozen=True)
class LikesBench:
    users: int
    concurrency: int
    feedloom: Run
    naive: Run
    true_likes: int
    shown_after_flush: int
    shown_after_reconcile: int
    drifted_posts: int
    hot: bool  # the post was sharded during the run
    hot_per_flush: int


async def run_likes_bench(
    settings: Settings, users: int, concurrency: int, hot_per_flush: int
) -> LikesBench:
    settings = settings.model_copy(
        update={"worker_id": BENCH_WORKER_ID, "counter_hot_per_flush": hot_per_flush}
    )
    async with open_feedloom(settings) as feedloom:
        likers = await _make_users(feedloom, users)
        post_id = (
            await feedloom.services.publish(likers[0], "like me", [], Visibility.PUBLIC, None)
        ).post_id
        await feedloom.services.worker.process_pending()
        flusher_stop = asyncio.Event()
        flusher = asyncio.create_task(feedloom.services.worker.run_counter_flusher(flusher_stop))
        ours = await _timed(settings, concurrency, _likes_of(feedloom, likers, post_id))
        hot = bool(feedloom.metrics.registry.get_sample_value("feedloom_counter_hot_posts"))
        flusher_stop.set()
        await flusher
        await feedloom.services.worker.flush_counts()
        truth = (await feedloom.stores.engagement.true_counts([post_id]))[post_id].likes
        after_flush = await _shown(feedloom, post_id)
        drifted = await feedloom.services.reconcile.engaged()
        after_reconcile = await _shown(feedloom, post_id)
    naive = await _naive_run(settings, users, concurrency)
    shown = (after_flush, after_reconcile)
    return LikesBench(users, concurrency, ours, naive, truth, *shown, drifted, hot, hot_per_flush)


def _likes_of(
    feedloom: Feedloom, likers: Sequence[int], post_id: int
) -> list[Callable[[], Awaitable[bool]]]:
    engage = feedloom.services.engage
    return [partial(engage.like, user_id, post_id) for user_id in likers]


async def _make_users(feedloom: Feedloom, count: int) -> list[int]:
    ids = [feedloom.runtime.ids.next_id() for _ in range(count)]
    new = [NewUser(i, f"liker_{n}", f"Liker {n}", "bench: no sign-in") for n, i in enumerate(ids)]
    await feedloom.stores.bulk.load(new, [], feedloom.runtime.clock(), lambda _: False)
    return ids


async def _shown(feedloom: Feedloom, post_id: int) -> int:
    return (await feedloom.caches.counters.get_many([post_id]))[post_id].likes


async def _timed(
    settings: Settings, concurrency: int, calls: Sequence[Callable[[], Awaitable[Any]]]
) -> Run:
    async with _lock_sampler(settings) as samples:
        started, cpu = time.perf_counter(), time.process_time()
        results = await bounded(list(calls), concurrency)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    accepted = sum(1 for result in results if result is not False)
    waiting = sum(1 for s in samples if s)
    return Run(accepted, wall, len(samples), waiting, max(samples, default=0), cpu)


@contextlib.asynccontextmanager
async def _lock_sampler(settings: Settings) -> AsyncIterator[list[int]]:
    """Sessions waiting on a lock, sampled until the block ends (PostgreSQL only:
    SQLite has one writer at a time and no such view; nothing is sampled there)."""
    samples: list[int] = []
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        yield samples
        return
    engine = create_database(url, settings.database_schema)
    stop = asyncio.Event()

    async def sample() -> None:
        async with engine.connect() as conn:
            while not stop.is_set():
                samples.append(int((await conn.execute(text(LOCK_WAITERS))).scalar() or 0))
                await asyncio.sleep(SAMPLE_EVERY_S)

    task = asyncio.create_task(sample())
    try:
        yield samples
    finally:
        stop.set()
        await task
        await engine.dispose()


async def _naive_run(settings: Settings, users: int, concurrency: int) -> Run:
    engine = create_database(settings.effective_database_url, settings.database_schema)
    try:
        await _naive_tables(engine)
        calls = [partial(_naive_like, engine, user_id) for user_id in range(users)]
        return await _timed(settings, concurrency, calls)
    finally:
        await engine.dispose()


async def _naive_tables(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "CREATE TABLE bench_naive_likes (post_id BIGINT, user_id BIGINT, "
                "PRIMARY KEY (post_id, user_id))"
            )
        )
        await conn.execute(
            text("CREATE TABLE bench_naive_counts (post_id BIGINT PRIMARY KEY, likes INTEGER)")
        )
        await conn.execute(text("INSERT INTO bench_naive_counts VALUES (1, 0)"))


async def _naive_like(engine: AsyncEngine, user_id: int) -> bool:
    async with engine.begin() as conn:
        await conn.execute(
            text("INSERT INTO bench_naive_likes VALUES (1, :user)"), {"user": user_id}
        )
        await conn.execute(
            text("UPDATE bench_naive_counts SET likes = likes + 1 WHERE post_id = 1")
        )
    return True


def render_likes(bench: LikesBench, store: str) -> str:
    ours, naive = bench.feedloom, bench.naive
    waits = "n/a (SQLite: one writer)" if not ours.lock_samples else None
    lines = [
        f"## bench likes on {store}: one post, {bench.users:,} distinct likers, "
        f"{bench.concurrency} in flight",
        "",
        "| | likes/s | vs naive | CPU ms/like (bench process) | lock-wait samples "
        "| most waiting at once |",
        "|---|---:|---:|---:|---:|---:|",
        _row("feedloom", ours, naive, waits),
        _row("naive +1 on one row", naive, naive, waits),
        "",
        f"The post was {'hot: batched into sharded sub-counters' if bench.hot else 'never hot'} "
        f"(hot from {bench.hot_per_flush} likes per flush window). "
        f"True likes {bench.true_likes:,}; displayed after the flush "
        f"{bench.shown_after_flush:,}; after reconciliation {bench.shown_after_reconcile:,} "
        f"({bench.drifted_posts} post(s) had drifted) — "
        + (
            "equal"
            if bench.true_likes == bench.shown_after_flush == bench.shown_after_reconcile
            else "NOT EQUAL"
        ),
    ]
    return "\n".join(lines)


def _row(name: str, run: Run, baseline: Run, waits: str | None) -> str:
    ratio = run.likes_per_s / baseline.likes_per_s
    lock = waits or f"{run.lock_waiting_samples} of {run.lock_samples}"
    most = "n/a" if waits else str(run.max_waiting)
    cpu_ms = run.cpu_s * 1000 / max(run.likes, 1)
    return f"| {name} | {run.likes_per_s:,.0f} | {ratio:.2f}x | {cpu_ms:.1f} | {lock} | {most} |"
