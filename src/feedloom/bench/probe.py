"""Observe a running server from outside: /metrics counters and histograms, /readyz.

Fan-out is asynchronous, so "finished" means: nothing left in the outbox, nothing
waiting or unacknowledged on any queue lane (`GET /readyz`).
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field

import httpx
from prometheus_client.parser import text_string_to_metric_families

TIMELINE_WRITES = "feedloom_fanout_timeline_writes_total"
FANOUT_LAG = "feedloom_fanout_lag_seconds"
POLL_S = 0.05


@dataclass(frozen=True)
class MetricsSnapshot:
    timeline_writes: float
    # Cumulative fan-out lag histogram over all lanes: upper bound -> count.
    lag_buckets: dict[float, float] = field(default_factory=dict)

    def since(self, earlier: MetricsSnapshot) -> MetricsSnapshot:
        return MetricsSnapshot(
            self.timeline_writes - earlier.timeline_writes,
            {
                bound: count - earlier.lag_buckets.get(bound, 0.0)
                for bound, count in self.lag_buckets.items()
            },
        )

    def lag_quantile(self, q: float) -> float | None:
        return histogram_quantile(q, self.lag_buckets)


def parse_metrics(text: str) -> MetricsSnapshot:
    writes = 0.0
    buckets: dict[float, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == TIMELINE_WRITES:
                writes += sample.value
            elif sample.name == f"{FANOUT_LAG}_bucket":
                bound = float(sample.labels["le"])
                buckets[bound] = buckets.get(bound, 0.0) + sample.value
    return MetricsSnapshot(writes, dict(sorted(buckets.items())))


def histogram_quantile(q: float, buckets: dict[float, float]) -> float | None:
    """Prometheus' `histogram_quantile`: find the bucket holding the q-th observation and
    interpolate linearly inside it. Only as fine as the buckets; None if empty. An
    answer in the +Inf bucket is reported as the highest finite bound."""
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return None
    rank = q * buckets[bounds[-1]]
    lower_bound, lower_count = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return lower_bound
            if count == lower_count:
                return bound
            return lower_bound + (bound - lower_bound) * (rank - lower_count) / (
                count - lower_count
            )
        lower_bound, lower_count = bound, count
    return lower_bound


async def scrape(client: httpx.AsyncClient) -> MetricsSnapshot:
    response = await client.get("/metrics")
    response.raise_for_status()
    return parse_metrics(response.text)


async def backlog(client: httpx.AsyncClient) -> int:
    """Events not yet fanned out: outbox rows plus every queue lane's waiting and
    unacknowledged entries."""
    response = await client.get("/readyz")
    response.raise_for_status()
    body = response.json()
    return int(body["outbox_pending"]) + sum(int(n) for n in body["queue"].values())


async def wait_drained(client: httpx.AsyncClient, timeout_s: float) -> float | None:
    """Poll until the backlog is empty; the monotonic time it was first seen empty,
    or None if it did not drain within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if await backlog(client) == 0:
            return time.monotonic()
        await asyncio.sleep(POLL_S)
    return None
