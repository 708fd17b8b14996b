"""`bench lanes`: does a big account's fan-out delay ordinary posts? (issue 10, item 3)

In this process, on the store the settings name: one pushed author with `big` followers
(each with a built timeline, so every follower gets the insert), and `ordinary` authors
with `per_author` followers each drawn from the same readers. While ordinary posts
arrive at `rate` per second through the same write path (post + outbox event in one
transaction), the big author posts again as soon as its previous post is fanned out, so
a bulk-lane fan-out of `big` inserts runs for the whole window; the worker (`run_worker`:
relay + one consumer per lane) fans everything out. The figure is the ordinary posts'
fan-out lag (post created -> in its followers' timelines) from the worker's own histogram
`feedloom_fanout_lag_seconds{lane="default"}`, read as the bucket bound its 99th
percentile falls under, beside the share of the window a big fan-out was running.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from feedloom.bench.inprocess import POLL_S, backlog
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.capacity.graph import Edge
from feedloom.demo import demo_text
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Post, Visibility
from feedloom.metrics import LAG_BUCKETS
from feedloom.settings import Settings

LAG = "feedloom_fanout_lag_seconds"


@dataclass(frozen=True)
class LanesRun:
    big_followers: int
    ordinary_posts: int
    ordinary_lag_p99_le: float | None  # the bucket bound (s); None: above the last one
    ordinary_lag_count: int
    big_posts: int  # big fan-outs finished during the window
    big_fanout_s: float  # the longest one: post created -> its lag observed
    big_busy_share: float  # of the ordinary posts' window, a big fan-out was under way
    seconds: float  # worker start -> everything fanned out
    setup_s: float


def lanes_graph(big: int, ordinary: int, per_author: int, seed: int = 7) -> list[Edge]:
    """Reader r0..r{big-1} all follow "big"; ordinary author oI has `per_author` readers."""
    rng = random.Random(seed)
    edges: list[Edge] = [(f"r{reader}", "big") for reader in range(big)]
    for author in range(ordinary):
        for reader in rng.sample(range(big), min(per_author, big)):
            edges.append((f"r{reader}", f"o{author}"))
    return edges


async def run_lanes(
    settings: Settings, edges: list[Edge], ordinary: int, rate: float, seconds: float
) -> LanesRun:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        started = time.monotonic()
        imported = await feedloom.services.graph_import.run(
            edges, "not-a-login", build_timelines=True
        )
        big = imported.user_ids["big"]
        authors = [imported.user_ids[f"o{index}"] for index in range(ordinary)]
        setup_s = time.monotonic() - started
        rng = random.Random(5)
        stop = asyncio.Event()
        begun = time.perf_counter()
        worker = asyncio.create_task(feedloom.services.worker.run(stop, 1))
        try:
            window_over = asyncio.Event()
            busy = asyncio.create_task(_keep_bulk_busy(feedloom, big, rng, window_over))
            window_start = time.perf_counter()
            posted = await _trickle(feedloom, authors, rate, seconds, rng)
            window = (window_start, time.perf_counter())
            window_over.set()
            big_fanouts = await asyncio.wait_for(busy, 600)
            while True:  # polling, as bench/inprocess.py: "empty" is the store's state
                if not await backlog(feedloom):
                    break
                await asyncio.sleep(POLL_S)
            total_s = time.perf_counter() - begun
        finally:
            stop.set()
            await worker
        count, p99 = _p99(feedloom, "default")
        return LanesRun(
            sum(1 for _, followee in edges if followee == "big"),
            posted,
            p99,
            count,
            big_posts=len(big_fanouts),
            big_fanout_s=max((end - start for start, end in big_fanouts), default=0.0),
            big_busy_share=_covered(big_fanouts, window),
            seconds=total_s,
            setup_s=setup_s,
        )


async def _post(feedloom: Feedloom, author: int, rng: random.Random) -> None:
    post_id = feedloom.runtime.ids.next_id()
    post = Post(post_id, author, demo_text(rng), Visibility.PUBLIC, created_at_of(post_id))
    await feedloom.stores.posts.create_post(post, None, "", feedloom.runtime.clock())


async def _trickle(
    feedloom: Feedloom, authors: list[int], rate: float, seconds: float, rng: random.Random
) -> int:
    """Ordinary posts at `rate`/s for `seconds` (paced from the start, not per post)."""
    start, posted = time.perf_counter(), 0
    while (elapsed := time.perf_counter() - start) < seconds:
        due = int(elapsed * rate) + 1
        while posted < due:
            await _post(feedloom, rng.choice(authors), rng)
            posted += 1
        await asyncio.sleep(max(0.0, posted / rate - (time.perf_counter() - start)))
    return posted


async def _keep_bulk_busy(
    feedloom: Feedloom, big: int, rng: random.Random, window_over: asyncio.Event
) -> list[tuple[float, float]]:
    """The big author posts, waits for that post's fan-out, and posts again, until the
    ordinary posts' window is over; returns each big fan-out's (posted, done) times."""
    spans: list[tuple[float, float]] = []
    while not window_over.is_set():
        posted = time.perf_counter()
        await _post(feedloom, big, rng)
        while True:  # polling the worker's histogram: one more bulk lag observed
            if _p99(feedloom, "bulk")[0] > len(spans):
                break
            await asyncio.sleep(POLL_S)
        spans.append((posted, time.perf_counter()))
    return spans


def _covered(spans: list[tuple[float, float]], window: tuple[float, float]) -> float:
    """The share of `window` the (non-overlapping) spans cover."""
    start, end = window
    inside = sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)
    return inside / (end - start) if end > start else 0.0


def _p99(feedloom: Feedloom, lane: str) -> tuple[int, float | None]:
    registry = feedloom.metrics.registry
    counts: dict[float, float] = {}
    for metric in registry.collect():
        if metric.name != LAG:
            continue
        for sample in metric.samples:
            if sample.name == f"{LAG}_bucket" and sample.labels.get("lane") == lane:
                bound = float(sample.labels["le"])
                counts[bound] = counts.get(bound, 0.0) + sample.value
    total = int(counts.get(float("inf"), 0.0))
    if not total:
        return 0, None
    for bound in [*LAG_BUCKETS, float("inf")]:
        if counts.get(bound, 0.0) >= 0.99 * total:
            return total, bound if bound != float("inf") else None
    return total, None
