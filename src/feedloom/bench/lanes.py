"""`bench lanes`: does a big account's fan-out delay ordinary posts? (issue 10, item 3)

In this process, on the store the settings name: one pushed author with `big` followers
(each with a built timeline, so every follower gets the insert), and `ordinary` authors
with `per_author` followers each drawn from the same readers. The big author posts once
(a bulk-lane fan-out of `big` inserts); while that runs, ordinary posts arrive at `rate`
per second through the same write path (post + outbox event in one transaction), and the
worker (`run_worker`: relay + one consumer per lane) fans everything out. The figure is
the ordinary posts' fan-out lag (post created -> in its followers' timelines) from the
worker's own histogram `feedloom_fanout_lag_seconds{lane="default"}`, read as the
bucket bound its 99th percentile falls under, and whether the big fan-out was still
running when the last ordinary post had been fanned out.
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
    big_fanout_s: float  # the big post's fan-out: worker start -> its lane's lag observed
    seconds: float  # worker start -> everything fanned out
    overlapped: bool  # ordinary posts were fanned out while the big fan-out ran
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
            await _post(feedloom, big, rng)
            big_done: list[float] = []
            watcher = asyncio.create_task(_watch_bulk(feedloom, begun, big_done))
            posted = await _trickle(feedloom, authors, rate, seconds, rng)
            ordinary_done = time.perf_counter() - begun
            while True:  # polling, as bench/inprocess.py: "empty" is the store's state
                if not await backlog(feedloom):
                    break
                await asyncio.sleep(POLL_S)
            total_s = time.perf_counter() - begun
            await asyncio.wait_for(watcher, 5)
        finally:
            stop.set()
            await worker
        count, p99 = _p99(feedloom, "default")
        big_s = big_done[0] if big_done else total_s
        return LanesRun(
            sum(1 for _, followee in edges if followee == "big"),
            posted,
            p99,
            count,
            big_s,
            total_s,
            overlapped=ordinary_done < big_s,
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


async def _watch_bulk(feedloom: Feedloom, begun: float, done: list[float]) -> None:
    """When the big post's lag is observed (its fan-out finished)."""
    while True:
        if _p99(feedloom, "bulk")[0]:
            done.append(time.perf_counter() - begun)
            return
        await asyncio.sleep(POLL_S)


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
