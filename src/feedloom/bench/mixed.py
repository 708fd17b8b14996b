"""`bench mixed`: feed reads, posts and likes at a fixed mix, for a fixed time.

`concurrency` client loops each pick an operation by weight (reads : posts : likes =
ratio : 1 : likes-per-post) and a uniformly random user, send it, and record its
latency. Feed reads also record the server's own time from the `Server-Timing` header
(`total;dur=`), and each stage's, to show where the server's time goes. Loops are
bounded twice, by the deadline and by a request cap, so a run always stops by itself.
Likes go to posts seen in earlier feed pages.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import httpx

from feedloom.bench.fanout import auth
from feedloom.bench.hdr import LatencyHistogram

MAX_REQUESTS_PER_LOOP_PER_S = 5_000
SEEN_POSTS = 10_000
SERVER_STAGE = re.compile(r"([A-Za-z0-9_-]+);dur=([0-9.]+)")
READ, POST, LIKE = "read", "post", "like"


@dataclass(frozen=True)
class Mix:
    reads_per_post: float = 40.0
    likes_per_post: float = 2.0
    page_size: int = 20


@dataclass
class MixedRun:
    seconds: float = 0.0
    feed_client: LatencyHistogram = field(default_factory=LatencyHistogram)
    feed_server: LatencyHistogram = field(default_factory=LatencyHistogram)
    post_client: LatencyHistogram = field(default_factory=LatencyHistogram)
    like_client: LatencyHistogram = field(default_factory=LatencyHistogram)
    done: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # "read 500", "post ReadTimeout"
    empty_feeds: int = 0
    stage_ms: Counter[str] = field(default_factory=Counter)  # summed over feed reads

    def mean_stage_ms(self) -> dict[str, float]:
        """Mean server time per feed read by Server-Timing stage (`total` included)."""
        reads = self.feed_server.count
        return {stage: total / reads for stage, total in self.stage_ms.items()} if reads else {}

    def rate(self, operation: str) -> float:
        return self.done[operation] / self.seconds if self.seconds else 0.0


async def run_mixed(
    client: httpx.AsyncClient,
    tokens: Mapping[str, str],
    mix: Mix,
    duration_s: float,
    concurrency: int,
    seed: int = 0,
    tick: Callable[[MixedRun], None] = lambda _run: None,
) -> MixedRun:
    run = MixedRun()
    users = list(tokens.values())
    seen: deque[str] = deque(maxlen=SEEN_POSTS)
    started = time.monotonic()
    deadline = started + duration_s
    cap = max(1, int(duration_s * MAX_REQUESTS_PER_LOOP_PER_S))

    async def loop(index: int) -> None:
        rng = random.Random(seed * 1_000 + index)
        weights = [mix.reads_per_post, 1.0, mix.likes_per_post]
        for _ in range(cap):
            if time.monotonic() >= deadline:
                return
            operation = rng.choices((READ, POST, LIKE), weights)[0]
            token = rng.choice(users)
            if operation == LIKE and not seen:
                operation = READ  # nothing seen yet to like
            await _one(client, run, operation, token, rng, seen, mix)
            tick(run)

    await asyncio.gather(*(loop(index) for index in range(concurrency)))
    run.seconds = time.monotonic() - started
    return run


async def _one(
    client: httpx.AsyncClient,
    run: MixedRun,
    operation: str,
    token: str,
    rng: random.Random,
    seen: deque[str],
    mix: Mix,
) -> None:
    sent = time.perf_counter()
    try:
        if operation == READ:
            response = await client.get(
                "/v1/feed", params={"limit": mix.page_size}, headers=auth(token)
            )
        elif operation == POST:
            text = f"mixed bench post {rng.getrandbits(32):08x}"
            response = await client.post("/v1/posts", json={"text": text}, headers=auth(token))
        else:
            post_id = seen[rng.randrange(len(seen))]
            response = await client.put(f"/v1/posts/{post_id}/like", headers=auth(token))
    except httpx.HTTPError as error:
        run.errors[f"{operation} {type(error).__name__}"] += 1
        return
    elapsed = time.perf_counter() - sent
    if response.status_code >= 400:
        run.errors[f"{operation} {response.status_code}"] += 1
        return
    run.done[operation] += 1
    if operation == READ:
        run.feed_client.record(elapsed)
        stages = dict(SERVER_STAGE.findall(response.headers.get("server-timing", "")))
        if "total" in stages:
            run.feed_server.record(float(stages["total"]) / 1000)
            run.stage_ms.update({stage: float(ms) for stage, ms in stages.items()})
        items = response.json()["items"]
        run.empty_feeds += not items
        seen.extend(item["post_id"] for item in items[:3])
    else:
        (run.post_client if operation == POST else run.like_client).record(elapsed)
