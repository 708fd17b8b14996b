"""`bench fanout` over HTTP: every user posts once; how fast does fan-out finish?

Steps: every user opens their feed once (an active user has a timeline: on the
embedded store that is what creates it, in the server's memory); the backlog drains;
then every user posts once, `concurrency` requests at a time, and we poll `/readyz`
until outbox and queues are empty. Timeline writes and fan-out lag come from the
server's own metrics (`/metrics`), as the difference between before and after.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

import httpx

from feedloom.bench.hdr import LatencyHistogram
from feedloom.bench.probe import scrape, wait_drained
from feedloom.gather import bounded

DRAIN_TIMEOUT_S = 600.0
Tick = Callable[[int], None]


@dataclass
class FanoutRun:
    posts: int
    post_errors: int
    posting_s: float
    timeline_writes: float
    seconds: float | None  # first post sent -> backlog empty; None: did not drain
    lag_p50_s: float | None
    lag_p99_s: float | None
    post_latency: LatencyHistogram

    @property
    def writes_per_second(self) -> float | None:
        return self.timeline_writes / self.seconds if self.seconds else None


async def warm_up(
    client: httpx.AsyncClient, tokens: Mapping[str, str], concurrency: int, tick: Tick
) -> int:
    """Every user reads their feed once; returns how many reads failed."""

    async def read(token: str) -> bool:
        try:
            response = await client.get("/v1/feed", params={"limit": 1}, headers=auth(token))
            ok = response.status_code == 200
        except httpx.HTTPError:
            ok = False
        tick(1)
        return ok

    results = await bounded([partial(read, token) for token in tokens.values()], concurrency)
    return results.count(False)


async def post_once_each(
    client: httpx.AsyncClient, tokens: Mapping[str, str], concurrency: int, tick: Tick
) -> FanoutRun:
    if await wait_drained(client, DRAIN_TIMEOUT_S) is None:
        raise RuntimeError("the server's fan-out backlog did not drain before the run")
    before = await scrape(client)
    latency = LatencyHistogram()
    order = list(tokens.values())
    random.Random(5).shuffle(order)  # big and small authors interleaved, as in life

    async def post(index: int, token: str) -> bool:
        sent = time.perf_counter()
        try:
            response = await client.post(
                "/v1/posts", json={"text": f"fan-out bench post {index}"}, headers=auth(token)
            )
            ok = response.status_code == 201
        except httpx.HTTPError:
            ok = False
        latency.record(time.perf_counter() - sent)
        tick(1)
        return ok

    started = time.monotonic()
    results = await bounded([partial(post, i, t) for i, t in enumerate(order)], concurrency)
    posting_s = time.monotonic() - started
    finished = await wait_drained(client, DRAIN_TIMEOUT_S)
    delta = (await scrape(client)).since(before)
    return FanoutRun(
        posts=results.count(True),
        post_errors=results.count(False),
        posting_s=posting_s,
        timeline_writes=delta.timeline_writes,
        seconds=None if finished is None else finished - started,
        lag_p50_s=delta.lag_quantile(0.5),
        lag_p99_s=delta.lag_quantile(0.99),
        post_latency=latency,
    )


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
