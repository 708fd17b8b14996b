"""`bench fanout`: run it (over HTTP, or in-process) and render its figures.

Beside every measured figure stands what the simulation model predicts for the same
graph and threshold (`capacity.simulate`): `expected_timeline_writes` is the sum of
the followers of every pushed author. Fewer measured writes means a follower had no
timeline or an insert was lost; more means events were delivered twice (at-least-once
delivery: harmless to timelines, but work), so `useful_writes_per_second` counts only
the expected writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from feedloom.bench.fanout import post_once_each, warm_up
from feedloom.bench.inprocess import run_in_process
from feedloom.bench.progress import RunProgress
from feedloom.bench.report import fmt, latency_cell, markdown_table
from feedloom.bench.stores import StoreKind, scratch_store, settings_from_env
from feedloom.bench.target import Target, http_client
from feedloom.capacity.graph import Edge
from feedloom.capacity.simulate import simulate

Figures = dict[str, Any]


def fanout_env(pull_above: int) -> dict[str, str]:
    # push_below = pull_above: no hysteresis band, the graph does not change during a run.
    return {
        "FEEDLOOM_FANOUT__PULL_ABOVE": str(pull_above),
        "FEEDLOOM_FANOUT__PUSH_BELOW": str(pull_above),
    }


def model_figures(edges: Sequence[Edge], pull_above: float) -> Figures:
    result = simulate(edges, [pull_above])
    row = result.rows[0]
    return {
        "users": result.users,
        "follows": result.edges,
        "pull_above": pull_above,
        "pulled_authors": row.pulled_authors,
        "expected_timeline_writes": row.total_writes,
        "model_read_sources_p50": row.read_sources_p50,
        "model_read_sources_p99": row.read_sources_p99,
    }


async def fanout_over_http(
    target: Target,
    edges: Sequence[Edge],
    pull_above: int,
    concurrency: int,
    progress: RunProgress,
) -> Figures:
    async with http_client(target.url, concurrency) as client:
        failed = await warm_up(
            client,
            target.tokens,
            concurrency,
            progress.counter("warm-up feed reads", len(target.tokens)),
        )
        cpu_before = target.server.cpu_seconds() if target.server else None
        run = await post_once_each(
            client, target.tokens, concurrency, progress.counter("posting", len(target.tokens))
        )
        cpu_after = target.server.cpu_seconds() if target.server else None
    # The API process's CPU from the first post until fan-out finished: HTTP + fan-out.
    api_cpu_s = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    figures = {
        "mode": "http",
        "store": target.description,
        **model_figures(edges, pull_above),
        "concurrency": concurrency,
        "warm_up_errors": failed,
        "posts": run.posts,
        "post_errors": run.post_errors,
        "posting_s": run.posting_s,
        "posts_per_s": run.posts / run.posting_s if run.posting_s else None,
        "timeline_writes": int(run.timeline_writes),
        "seconds": run.seconds,
        "writes_per_second": run.writes_per_second,
        "lag_p50_s": run.lag_p50_s,
        "lag_p99_s": run.lag_p99_s,
        "api_cpu_s": api_cpu_s,
        **{f"post_{k}": v for k, v in run.post_latency.summary().items()},
        "post_latency_curve": run.post_latency.distribution(),
    }
    return figures | {"useful_writes_per_second": _useful(figures)}


async def fanout_in_process(
    kind: StoreKind,
    edges: list[Edge],
    pull_above: int,
    worker_concurrency: int,
    conversations: bool = False,
) -> Figures:
    async with scratch_store(kind) as store:
        settings = settings_from_env(store.run_env(fanout_env(pull_above)))
        run = await run_in_process(settings, edges, worker_concurrency, conversations)
    figures = {
        "mode": "in-process",
        "store": kind + ("+redis" if settings.redis_url else ""),
        **model_figures(edges, pull_above),
        "worker_concurrency": worker_concurrency,
        "posts": run.posts,
        "setup_s": run.setup_s,
        "timeline_writes": int(run.timeline_writes),
        "seconds": run.seconds,
        "writes_per_second": run.inserts_per_second,
        "worker_cpu_s": run.cpu_s,
        "writes_per_worker_cpu_second": run.timeline_writes / run.cpu_s if run.cpu_s else None,
        "redis_cpu_s": run.redis_cpu_s,
        "sql_statements": run.sql_statements,
        "conversations": run.shares,
    }
    return figures | {"useful_writes_per_second": _useful(figures)}


def _useful(figures: Figures) -> float | None:
    seconds = figures["seconds"]
    if not seconds:
        return None
    return float(min(figures["timeline_writes"], figures["expected_timeline_writes"]) / seconds)


def render_fanout(figures: Figures) -> str:
    f = figures
    title = (
        f"## bench fanout ({f['mode']}, {f['store']}): {f['users']:,} users, "
        f"{f['follows']:,} follows, pull above {fmt(f['pull_above'])}"
    )
    rows = [
        ["pulled authors (followers > T)", fmt(f["pulled_authors"])],
        ["posts (one per user)", fmt(f["posts"])],
    ]
    if f["mode"] == "http":
        rows += [
            [
                "post errors / warm-up errors",
                f"{fmt(f['post_errors'])} / {fmt(f['warm_up_errors'])}",
            ],
            ["posting: seconds, posts/s", f"{fmt(f['posting_s'])} s, {fmt(f['posts_per_s'])}"],
            ["post latency p50 / p95 / p99 / max (ms)", latency_cell(f, "post")],
        ]
    else:
        rows.append(["worker concurrency (consumers per lane)", fmt(f["worker_concurrency"])])
        cpu = f"{fmt(f['worker_cpu_s'])} s, {fmt(f['writes_per_worker_cpu_second'])} writes/CPU-s"
        rows.append(["worker process CPU (excl. PostgreSQL, Redis)", cpu])
        if f["redis_cpu_s"] is not None:
            rows.append(["Redis CPU meanwhile (every primary)", f"{fmt(f['redis_cpu_s'])} s"])
        if f["conversations"] is not None:
            shares = f["conversations"]
            mix = f"{fmt(100 * shares['reposts'])} % reposts, {fmt(100 * shares['replies'])} %"
            rows.append(["entries (conversations)", f"{mix} of posts are replies"])
        statements = f["sql_statements"]
        per_post = statements / f["posts"] if f["posts"] else None
        rows.append(
            ["SQL statements while fanning out (per entry)", f"{fmt(statements)} ({fmt(per_post)})"]
        )
    rows += [
        [
            "timeline_writes (expected)",
            f"{fmt(f['timeline_writes'])} ({fmt(f['expected_timeline_writes'])})",
        ],
        ["seconds until fan-out finished", fmt(f["seconds"])],
        ["**writes_per_second**", f"**{fmt(f['writes_per_second'])}**"],
        ["useful writes/s (expected writes only)", fmt(f["useful_writes_per_second"])],
    ]
    if f["mode"] == "http":
        rows.append(["API process CPU, posting + fan-out (s)", fmt(f["api_cpu_s"])])
        rows.append(
            [
                "fan-out lag p50 / p99 (s, server histogram)",
                f"{fmt(f['lag_p50_s'])} / {fmt(f['lag_p99_s'])}",
            ]
        )
    return title + "\n\n" + markdown_table(["figure", "value"], rows) + "\n"
