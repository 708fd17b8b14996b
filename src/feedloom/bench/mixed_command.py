"""`bench mixed`: the same mixed load against push, pull and hybrid fan-out, side by side.

Each strategy gets a fresh store and server with its own thresholds (the graph and
the request mix stay the same):

- push: nobody is pulled (`pull_above` above any follower count);
- pull: everybody with a follower is pulled (`pull_above` = 0), and a reader merges
  all of them (`max_pulled_per_read` raised), as pure pull would;
- hybrid: the ~1% most-followed accounts are pulled (`hybrid_threshold`), which in
  the generated graphs are its big accounts.

Per strategy: every user reads their feed once (warm-up: builds the timelines), the
backlog drains, then the measured run; afterwards we wait for fan-out to catch up.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from feedloom.bench.fanout import warm_up
from feedloom.bench.mixed import Mix, MixedRun, run_mixed
from feedloom.bench.probe import scrape, wait_drained
from feedloom.bench.progress import Clock, RunProgress
from feedloom.bench.redis_probe import timeline_memory
from feedloom.bench.report import fmt, latency_cell, markdown_table
from feedloom.bench.target import Target, http_client
from feedloom.capacity.graph import Edge
from feedloom.capacity.simulate import simulate

STRATEGIES = ("push", "pull", "hybrid")
EVERYONE = 1_000_000_000  # a follower count no generated graph reaches
DRAIN_TIMEOUT_S = 300.0
RSS_EVERY_S = 60.0  # the API process' memory is sampled this often during the load
Figures = dict[str, Any]
OpenTarget = Callable[[dict[str, str]], AbstractAsyncContextManager[Target]]


def strategy_threshold(strategy: str, edges: Sequence[Edge]) -> float | None:
    """T for a strategy; None for "server" (a running server, thresholds its own)."""
    if strategy == "push":
        return float("inf")
    if strategy == "pull":
        return 0.0
    if strategy == "hybrid":
        return float(hybrid_threshold(edges))
    return None


def hybrid_threshold(edges: Sequence[Edge]) -> int:
    """Pull the ~1% most-followed accounts (at least one): T is the largest follower
    count below theirs. In the generated graphs those are the big accounts."""
    counts = sorted(Counter(followee for _, followee in set(edges)).values(), reverse=True)
    smallest_pulled = counts[max(1, round(len(counts) / 100)) - 1]
    return next((count for count in counts if count < smallest_pulled), 0)


def strategy_env(strategy: str, threshold: float | None) -> dict[str, str]:
    if threshold is None:
        return {}
    pull_above = EVERYONE if threshold == float("inf") else int(threshold)
    env = {
        "FEEDLOOM_FANOUT__PULL_ABOVE": str(pull_above),
        "FEEDLOOM_FANOUT__PUSH_BELOW": str(pull_above),
    }
    if strategy == "pull":
        env["FEEDLOOM_FANOUT__MAX_PULLED_PER_READ"] = str(EVERYONE)
    return env


async def mixed_strategy(
    strategy: str,
    open_target: OpenTarget,
    edges: Sequence[Edge],
    mix: Mix,
    duration_s: float,
    concurrency: int,
    progress: RunProgress,
) -> Figures:
    threshold = strategy_threshold(strategy, edges)
    model = None if threshold is None else simulate(edges, [threshold]).rows[0]
    async with open_target(strategy_env(strategy, threshold)) as target:
        async with http_client(target.url, concurrency) as client:
            tick = progress.counter(f"{strategy}: warm-up", len(target.tokens))
            warm_up_errors = await warm_up(client, target.tokens, concurrency, tick)
            if await wait_drained(client, DRAIN_TIMEOUT_S) is None:
                raise RuntimeError("the backlog did not drain after the warm-up")
            before = await scrape(client)
            cpu_before = target.server.cpu_seconds() if target.server else None
            clock = progress.clock(f"{strategy}: load", duration_s)
            async with _sampled_rss(target) as rss_samples:
                run = await run_mixed(
                    client, target.tokens, mix, duration_s, concurrency, tick=_throttled(clock)
                )
            stopped = time.monotonic()
            cpu_after = target.server.cpu_seconds() if target.server else None
            drained = await wait_drained(client, DRAIN_TIMEOUT_S)
            delta = (await scrape(client)).since(before)
        memory = await _timeline_memory(target)
        rss = target.server.api_rss_mb() if target.server else None
    return {
        "strategy": strategy,
        "store": target.description,
        "pull_above": threshold,
        "pulled_authors": model and model.pulled_authors,
        "model_read_sources_p50": model and model.read_sources_p50,
        "model_read_sources_p99": model and model.read_sources_p99,
        "warm_up_errors": warm_up_errors,
        "seconds": run.seconds,
        "reads": run.done["read"],
        "posts": run.done["post"],
        "likes": run.done["like"],
        "reads_per_s": run.rate("read"),
        "posts_per_s": run.rate("post"),
        "likes_per_s": run.rate("like"),
        "errors": sum(run.errors.values()),
        "error_kinds": dict(run.errors),
        "empty_feeds": run.empty_feeds,
        **_latencies(run),
        "lag_p50_s": delta.lag_quantile(0.5),
        "lag_p99_s": delta.lag_quantile(0.99),
        "timeline_writes": int(delta.timeline_writes),
        "catch_up_s": None if drained is None else drained - stopped,
        "timeline_bytes_per_user": None if memory is None else memory["mean_bytes"],
        "timeline_memory_sample": memory,
        "api_rss_mb": rss,
        "api_rss_samples_mb": rss_samples,
        # Cores the API process (API + inline fan-out worker) kept busy during the run:
        # divide a rate by it for a per-core rate.
        "api_cores": _cores(cpu_before, cpu_after, run.seconds),
    }


def _cores(before: float | None, after: float | None, seconds: float) -> float | None:
    if before is None or after is None or not seconds:
        return None
    return (after - before) / seconds


def _latencies(run: MixedRun) -> Figures:
    figures: Figures = {}
    for name, histogram in (
        ("feed_client", run.feed_client),
        ("feed_server", run.feed_server),
        ("post_client", run.post_client),
        ("like_client", run.like_client),
    ):
        figures |= {f"{name}_{key}": value for key, value in histogram.summary().items()}
    figures["feed_server_stage_ms"] = run.mean_stage_ms()
    figures["feed_client_curve"] = run.feed_client.distribution()
    return figures


async def _timeline_memory(target: Target) -> dict[str, float | int] | None:
    store = target.store
    if store is None or store.redis_url is None or store.redis_prefix is None:
        return None
    return await timeline_memory(
        store.redis_url, store.redis_prefix, list(target.user_ids.values())
    )


def _throttled(clock: Clock) -> Callable[[MixedRun], None]:
    """Redraw at most 5 times a second: the bar must not cost the client its throughput."""
    started = last = time.monotonic()

    def tick(run: MixedRun) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= 0.2:
            last = now
            errors = sum(run.errors.values())
            clock(now - started, f"{run.done['read']:,} reads, {errors} errors")

    return tick


def render_mixed(config: Figures, results: Sequence[Figures]) -> str:
    c = config
    title = (
        f"## bench mixed ({results[0]['store'] if results else '?'}): {c['users']:,} users, "
        f"{c['follows']:,} follows, {fmt(c['duration_s'])} s per strategy, concurrency "
        f"{c['concurrency']}, reads:posts:likes = "
        f"{fmt(c['reads_per_post'])}:1:{fmt(c['likes_per_post'])}"
    )
    header = ["figure", *(_label(r) for r in results)]
    rows: list[list[str]] = []

    def row(label: str, cell: Callable[[Figures], str]) -> None:
        rows.append([label, *(cell(r) for r in results)])

    row("pulled authors", lambda r: fmt(r["pulled_authors"]))
    row(
        "read sources p50 / p99 (model)",
        lambda r: f"{fmt(r['model_read_sources_p50'])} / {fmt(r['model_read_sources_p99'])}",
    )
    row("feed reads/s", lambda r: fmt(r["reads_per_s"]))
    row("posts/s", lambda r: fmt(r["posts_per_s"]))
    row("likes/s", lambda r: fmt(r["likes_per_s"]))
    row("**feed p50 / p95 / p99 / max, client (ms)**", lambda r: latency_cell(r, "feed_client"))
    row("feed p50 / p95 / p99 / max, server (ms)", lambda r: latency_cell(r, "feed_server"))
    row("feed server stages, mean (ms)", lambda r: _stages(r["feed_server_stage_ms"]))
    row("post p50 / p95 / p99 / max, client (ms)", lambda r: latency_cell(r, "post_client"))
    row("fan-out lag p50 / p99 (s)", lambda r: f"{fmt(r['lag_p50_s'])} / {fmt(r['lag_p99_s'])}")
    row("timeline writes (run + catch-up)", lambda r: fmt(r["timeline_writes"]))
    row("fan-out catch-up after the run (s)", lambda r: fmt(r["catch_up_s"]))
    row("errors: run / warm-up", lambda r: f"{fmt(r['errors'])} / {fmt(r['warm_up_errors'])}")
    row("empty feed pages", lambda r: fmt(r["empty_feeds"]))
    row("timeline memory per user (Redis)", lambda r: fmt(r["timeline_bytes_per_user"], " B"))
    row("API process RSS after the run", lambda r: fmt(r["api_rss_mb"], " MB"))
    row("API RSS growth, last two thirds of the load", lambda r: fmt(_growth(r), " MB"))
    row(
        f"API RSS every {fmt(RSS_EVERY_S)} s of the load (MB)",
        lambda r: ", ".join(fmt(mb) for mb in r["api_rss_samples_mb"]),
    )
    row("API process CPU during the run (cores)", lambda r: fmt(r["api_cores"]))
    row("**feed reads/s per API core**", lambda r: f"**{fmt(_per_core(r))}**")
    return title + "\n\n" + markdown_table(header, rows) + "\n"


@contextlib.asynccontextmanager
async def _sampled_rss(target: Target, every_s: float = RSS_EVERY_S) -> AsyncIterator[list[float]]:
    """The API process' resident memory as the load begins and every `every_s` after
    (a soak: `--duration 1800` shows whether it levels off after warm-up)."""
    samples: list[float] = []
    server = target.server

    async def sample() -> None:
        while server is not None:
            rss = server.api_rss_mb()
            if rss is not None:
                samples.append(rss)
            await asyncio.sleep(every_s)

    sampler = asyncio.create_task(sample())
    try:
        yield samples
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler


def _growth(result: Figures) -> float | None:
    """How much the API process grew over the last two thirds of the load's samples:
    after warm-up a process that does not leak stays flat."""
    samples: list[float] = result["api_rss_samples_mb"]
    if len(samples) < 3:
        return None
    return samples[-1] - samples[len(samples) // 3]


def _per_core(result: Figures) -> float | None:
    cores = result["api_cores"]
    return result["reads_per_s"] / cores if cores else None


def _stages(stage_ms: dict[str, float]) -> str:
    return ", ".join(f"{stage} {fmt(ms)}" for stage, ms in stage_ms.items() if stage != "total")


def _label(result: Figures) -> str:
    threshold = result["pull_above"]
    if threshold is None:
        return str(result["strategy"])
    shown = "inf" if threshold == float("inf") else f"{threshold:,.0f}"
    return f"{result['strategy']} (T = {shown})"
