"""`feedloom bench fanout | mixed | timelines | read | likes | search | notifications |
import`:
parse options, run, print Markdown.

`fanout` and `mixed` drive a whole server (feedloom.bench) and write JSON and a PNG with
`--out`; `timelines` measures the Redis timeline store alone (bench/timeline_store.py).
Bad options are a `typer.BadParameter` (exit 2, one line); a store or server that cannot
be started is one line on stderr and exit 1, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Coroutine, Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from feedloom.cli.errors import fail, require_bench_extra
from feedloom.write import consumers

# Only light imports here: `feedloom --help` must not pay for the benchmark's stack
# (SQLAlchemy, httpx, matplotlib...); each command imports what it runs.
if TYPE_CHECKING:
    from feedloom.bench.target import Target
    from feedloom.capacity.graph import Edge

app = typer.Typer(no_args_is_help=True, help="Benchmarks (127.0.0.1 only).", rich_markup_mode=None)
T = TypeVar("T")


class Start(StrEnum):
    embedded = "embedded"
    postgres = "postgres"
    cluster = "cluster"  # postgres (env URL) + a 3-master Redis Cluster the bench starts


class Surface(StrEnum):
    """Which client API `bench read --http` reads the home feed through."""

    v1 = "v1"
    mastodon = "mastodon"  # and /v1 beside it, in the same sitting


class Strategy(StrEnum):
    push = "push"
    pull = "pull"
    hybrid = "hybrid"
    all = "all"


GraphOption = Annotated[
    Path | None, typer.Option("--graph", help="Edge CSV (follower,followee).", dir_okay=False)
]
StartOption = Annotated[
    Start,
    typer.Option(
        help="Store of the server the bench starts (postgres: env URLs; cluster: postgres"
        " + a 3-master Redis Cluster on FEEDLOOM_BENCH_CLUSTER_PORT..+2, default 7300)."
    ),
]
UrlOption = Annotated[
    str | None, typer.Option(help="Use a running server instead (http://127.0.0.1:PORT).")
]
PasswordOption = Annotated[
    str | None, typer.Option(help="With --url: the password given to import-graph.")
]
ConcurrencyOption = Annotated[int, typer.Option(min=1, max=512, help="Requests in flight.")]
OutOption = Annotated[
    Path | None, typer.Option(help="Also write JSON and a PNG latency plot here.")
]


@app.command()
def fanout(
    graph: GraphOption = None,
    users: Annotated[int | None, typer.Option(min=2, help="Or generate N users.")] = None,
    seed: Annotated[int, typer.Option(help="Seed for --users.")] = 0,
    peers: Annotated[
        bool, typer.Option("--peers", help="Or the peers' workload (20,000 users, checked).")
    ] = False,
    pull_above: Annotated[
        int, typer.Option(min=0, help="Authors above T are pulled (--url: say the server's T).")
    ] = 10_000,
    start: StartOption = Start.embedded,
    url: UrlOption = None,
    password: PasswordOption = None,
    # 8, not more: on SQLite, 15+ concurrent posts exhaust the connection pool while
    # the relay holds the write lock and waits for a connection (errors after 30 s).
    concurrency: ConcurrencyOption = 8,
    in_process: Annotated[
        bool, typer.Option(help="Time the fan-out worker alone, in this process (no HTTP).")
    ] = False,
    worker_concurrency: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=64,
            help="--in-process: consumers per lane [default: the worker's own: "
            f"{consumers.IN_PROCESS} embedded, {consumers.SHARED_STORE} on Redis].",
        ),
    ] = None,
    conversations: Annotated[
        bool,
        typer.Option(
            help="--in-process: each user's entry is a reply (20 % of posts), a repost "
            "(10 %) or a post (bench/conversations.py); SQL statements are counted."
        ),
    ] = False,
    out: OutOption = None,
) -> None:
    """Every user posts once: timeline writes, time until fan-out finished, writes/s."""
    require_bench_extra("bench fanout")
    from feedloom.bench.fanout_command import (
        fanout_env,
        fanout_in_process,
        fanout_over_http,
        render_fanout,
    )
    from feedloom.bench.target import open_target
    from feedloom.cli.progress import ProgressBars

    edges = _peers_edges() if peers else _edges(graph, users, seed)
    if in_process and url:
        raise typer.BadParameter("--in-process starts its own store", param_hint="--url")
    if conversations and not in_process:
        raise typer.BadParameter("with --in-process only", param_hint="--conversations")
    url = _checked_url(url, password)

    async def main() -> dict[str, Any]:
        if in_process:
            consumers_per_lane = worker_concurrency or _consumers(start)
            return await fanout_in_process(
                start.value, edges, pull_above, consumers_per_lane, conversations
            )
        with ProgressBars() as progress:
            env = fanout_env(pull_above)
            async with open_target(start.value, url, password, edges, env) as target:
                return await fanout_over_http(target, edges, pull_above, concurrency, progress)

    figures = _run(main)
    typer.echo(render_fanout(figures))
    curves = {"POST /v1/posts": figures.pop("post_latency_curve", [])}
    _write(out, "fanout", figures, curves, "post latency (client side)")


@app.command()
def lanes(
    big: Annotated[int, typer.Option(min=2, help="Followers of the big pushed author.")] = 200_000,
    ordinary: Annotated[int, typer.Option(min=1, help="Ordinary authors.")] = 1_000,
    per_author: Annotated[int, typer.Option(min=1, help="Followers per ordinary author.")] = 50,
    rate: Annotated[float, typer.Option(min=0.1, help="Ordinary posts per second.")] = 50,
    duration: Annotated[float, typer.Option(min=0.5, help="Seconds of ordinary posts.")] = 20,
    start: StartOption = Start.embedded,
) -> None:
    """A big account's bulk-lane fan-out while ordinary posts arrive: their lag p99."""
    require_bench_extra("bench lanes")
    if big <= per_author:
        raise typer.BadParameter("the big author needs more followers than the others")
    from feedloom.bench.fanout_command import fanout_env
    from feedloom.bench.lanes import lanes_graph, run_lanes
    from feedloom.bench.stores import scratch_store, settings_from_env

    edges = lanes_graph(big, ordinary, per_author)
    # The big author is pushed (below pull_above), on the bulk lane: above bulk_above at the
    # ordinary authors' size, so they stay on the default lane (as with the default 1,000).
    env = fanout_env(big + 1) | {"FEEDLOOM_FANOUT__BULK_ABOVE": str(per_author)}

    async def main() -> dict[str, Any]:
        async with scratch_store(start.value) as store:
            settings = settings_from_env(store.run_env(env))
            run = await run_lanes(settings, edges, ordinary, rate, duration)
        return {"store": start.value, **dataclasses.asdict(run)}

    figures = _run(main)
    p99 = figures["ordinary_lag_p99_le"]
    typer.echo(
        f"## bench lanes ({figures['store']}): a {figures['big_followers']:,}-follower author's"
        f" bulk fan-outs back to back, {figures['ordinary_posts']:,} ordinary posts at"
        f" {rate:g}/s\n\n"
        "| figure | value |\n|---|---|\n"
        f"| ordinary posts' fan-out lag p99 | {'> 300' if p99 is None else f'<= {p99:g}'} s"
        f" ({figures['ordinary_lag_count']:,} observed) |\n"
        f"| big fan-outs finished | {figures['big_posts']:,}"
        f" (longest {figures['big_fanout_s']:.1f} s) |\n"
        f"| share of the ordinary posts' window a big fan-out was running |"
        f" {figures['big_busy_share']:.0%} |\n"
        f"| everything fanned out after | {figures['seconds']:.1f} s |\n"
        f"| setup (import, timelines) | {figures['setup_s']:.1f} s |"
    )


@app.command()
def mixed(
    users: Annotated[int, typer.Option(min=2, help="Users in the generated graph.")] = 1_000,
    seed: Annotated[int, typer.Option(help="Graph seed.")] = 0,
    duration: Annotated[float, typer.Option(min=0.5, max=3_600, help="Seconds per strategy.")] = 30,
    read_write_ratio: Annotated[float, typer.Option(min=0, help="Feed reads per post.")] = 40,
    likes_per_post: Annotated[float, typer.Option(min=0, help="Likes per post.")] = 2,
    concurrency: ConcurrencyOption = 32,
    fanout: Annotated[Strategy, typer.Option(help="Strategy, or all three.")] = Strategy.all,
    posts_per_user: Annotated[
        int, typer.Option(min=0, max=100, help="Posts stored per user before the run.")
    ] = 3,
    start: StartOption = Start.embedded,
    url: UrlOption = None,
    password: PasswordOption = None,
    out: OutOption = None,
) -> None:
    """A heavy-tailed graph under a feed-read:post:like mix; push, pull, hybrid side by side."""
    require_bench_extra("bench mixed")
    from feedloom.bench.mixed import Mix
    from feedloom.bench.mixed_command import STRATEGIES, mixed_strategy, render_mixed
    from feedloom.bench.target import open_target
    from feedloom.cli.progress import ProgressBars

    edges = _edges(None, users, seed)
    url = _checked_url(url, password)
    strategies = ["server"] if url else STRATEGIES if fanout is Strategy.all else (fanout.value,)
    mix = Mix(reads_per_post=read_write_ratio, likes_per_post=likes_per_post)

    def target_for(env: dict[str, str]) -> contextlib.AbstractAsyncContextManager[Target]:
        return open_target(start.value, url, password, edges, env, posts_per_user)

    async def main() -> list[dict[str, Any]]:
        results = []
        with ProgressBars() as progress:
            for strategy in strategies:
                results.append(
                    await mixed_strategy(
                        strategy, target_for, edges, mix, duration, concurrency, progress
                    )
                )
        return results

    results = _run(main)
    config = {
        "users": len({user for edge in edges for user in edge}),
        "follows": len(edges),
        "seed": seed,
        "duration_s": duration,
        "concurrency": concurrency,
        "reads_per_post": read_write_ratio,
        "likes_per_post": likes_per_post,
        "posts_per_user": posts_per_user,
    }
    typer.echo(render_mixed(config, results))
    curves = {str(r["strategy"]): r.pop("feed_client_curve", []) for r in results}
    data = {"config": config, "strategies": results}
    _write(out, "mixed", data, curves, "GET /v1/feed latency (client side)")


@app.command()
def timelines(
    users: Annotated[int, typer.Option(min=1, help="Timelines, all active.")] = 5_000,
    posts: Annotated[int, typer.Option(min=1, help="Posts fanned out to every user.")] = 40,
    batch: Annotated[int, typer.Option(min=1, max=10_000, help="Followers per call.")] = 1_000,
    length: Annotated[int, typer.Option(min=10, help="Timeline cap.")] = 500,
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="Posts in flight.")] = 1,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds per store, interleaved.")] = 3,
) -> None:
    """Fan-out inserts/s and bytes per full timeline: feedloom's encoding vs a sorted set."""
    from feedloom.bench.timeline_store import (
        DEFAULT_URL,
        Shape,
        measure_timelines,
        render_timelines,
    )
    from feedloom.cli.config import command_settings

    settings = command_settings()
    url = settings.redis_url or DEFAULT_URL
    typer.echo(f"bench timelines against {url}: {users} users x {posts} posts", err=True)
    shape = Shape(users, posts, batch, length, concurrency, rounds)
    try:
        results = asyncio.run(measure_timelines(url, settings.redis_cluster, shape))
    except RuntimeError as error:  # RedisUnavailable, or a timeline that came out wrong
        fail(str(error))
    typer.echo(render_timelines(results, shape))


@app.command()
def read(
    users: Annotated[int, typer.Option(min=200, help="Users of the peers' workload.")] = 20_000,
    seed: Annotated[int, typer.Option(help="The workload's seed.")] = 42,
    readers: Annotated[int, typer.Option(min=1, help="Readers sampled and timed.")] = 2_000,
    warmup: Annotated[int, typer.Option(min=0, help="Other readers read first.")] = 200,
    rounds: Annotated[int, typer.Option(min=1, max=20, help="Timed rounds.")] = 3,
    start: StartOption = Start.embedded,
    http: Annotated[
        bool, typer.Option(help="Over HTTP against a server it starts (bench/read_http.py).")
    ] = False,
    concurrency: Annotated[int, typer.Option(min=1, max=256, help="--http: clients.")] = 16,
    surface: Annotated[
        Surface,
        typer.Option(
            help="--http: `mastodon` also reads GET /api/v1/timelines/home in the same "
            "sitting, round by round beside GET /v1/feed, and reports the ratio."
        ),
    ] = Surface.v1,
    conversations: Annotated[
        bool,
        typer.Option(
            help="Replies (20 % of posts) and reposts (10 % of activity) on the same graph; "
            "pages checked against the reply rule and no double posts, 10-page scrolls "
            "checked for duplicates (bench/conversations.py). No baseline."
        ),
    ] = False,
    feeds: Annotated[
        bool,
        typer.Option(
            help="A 100-member list feed, a saved feed with 3 filters and a local generator "
            "feed, each beside the home feed in one sitting, p50 ratios reported "
            "(bench/custom_feeds.py). No baseline."
        ),
    ] = False,
    followed_tags: Annotated[
        int,
        typer.Option(
            min=0,
            max=100,
            help="Then time the same readers again, each following N tags (every post "
            "carries one of 100): the home feed's pulled tag source (bench/tagged_reads.py).",
        ),
    ] = 0,
) -> None:
    """First-page home feed reads in-process on the peers' workload, beside a naive SQL
    pull baseline on the same graph, pages checked (see bench/read.py)."""
    if http and conversations:
        raise typer.BadParameter("in-process only", param_hint="--conversations")
    if feeds and (http or conversations):
        raise typer.BadParameter("in-process, without --conversations", param_hint="--feeds")
    if surface is not Surface.v1 and not http:
        raise typer.BadParameter("over HTTP only (--http)", param_hint="--surface")
    if followed_tags and (http or conversations):
        raise typer.BadParameter(
            "in-process, without --conversations", param_hint="--followed-tags"
        )
    if http:
        require_bench_extra("bench read --http", "httpx")
        _read_over_http(users, seed, readers, rounds, start, concurrency, surface)
        return
    from feedloom.bench.read import render_read, run_read_bench
    from feedloom.bench.stores import scratch_store, settings_from_env
    from feedloom.bench.workload import PEERS_FINGERPRINT, PEERS_SEED, PEERS_USERS, peers_workload

    if feeds:
        _read_feeds(users, seed, readers, rounds, start)
        return

    async def main() -> str:
        workload = peers_workload(users, seed)
        if (users, seed) == (
            PEERS_USERS,
            PEERS_SEED,
        ) and workload.fingerprint() != PEERS_FINGERPRINT:
            raise RuntimeError(f"graph fingerprint {workload.fingerprint()} is not the peers'")
        async with scratch_store(start.value) as store:
            settings = settings_from_env(store.run_env({}))
            typer.echo(f"bench read on {start.value}: {users:,} users, {readers} readers", err=True)
            bench = await run_read_bench(
                settings, workload, readers, warmup, rounds, conversations, followed_tags
            )
            return render_read(bench, start.value)

    typer.echo(_run(main))


@app.command()
def likes(
    users: Annotated[int, typer.Option(min=10, help="Distinct likers of the one post.")] = 20_000,
    concurrency: Annotated[int, typer.Option(min=1, max=256, help="Likes in flight.")] = 32,
    hot_per_flush: Annotated[
        int, typer.Option(min=1, help="Likes per flush window that make the post hot (sharded).")
    ] = 5,
    start: StartOption = Start.postgres,
) -> None:
    """One hot post liked by many distinct users: likes/s, lock waits, displayed vs true
    count after the flush and after reconciliation, beside a naive +1-on-a-row peer."""
    from feedloom.bench.likes import render_likes, run_likes_bench
    from feedloom.bench.stores import scratch_store, settings_from_env

    async def main() -> str:
        async with scratch_store(start.value) as store:
            settings = settings_from_env(store.run_env({}))
            typer.echo(f"bench likes on {start.value}: {users:,} likers", err=True)
            bench = await run_likes_bench(settings, users, concurrency, hot_per_flush)
            return render_likes(bench, start.value)

    typer.echo(_run(main))


@app.command()
def search(
    posts: Annotated[
        int, typer.Option(min=100, help="Posts of history to search (the issue: 1,000,000).")
    ] = 1_000_000,
    authors: Annotated[int, typer.Option(min=30, help="Accounts that wrote them.")] = 10_000,
    queries: Annotated[
        int, typer.Option(min=1, help="Searches of one word, and as many of two.")
    ] = 500,
    writes: Annotated[int, typer.Option(min=1, help="Posts published to time posting.")] = 2_000,
    without_index: Annotated[
        bool, typer.Option(help="Time posting again with the post index dropped.")
    ] = True,
    seed: Annotated[int, typer.Option(help="Seed of the text.")] = 7,
    start: StartOption = Start.postgres,
) -> None:
    """Full-text search over a generated history: p50/p99 of one- and two-word searches
    through the whole read path, and the post rate with the index kept (and without)."""
    from feedloom.bench.search import render_search, run_search_bench
    from feedloom.bench.stores import scratch_store, settings_from_env

    async def main() -> str:
        async with scratch_store(start.value) as store:
            settings = settings_from_env(store.run_env({}))
            typer.echo(f"bench search on {start.value}: {posts:,} posts", err=True)
            bench = await run_search_bench(
                settings, posts, authors, queries, writes, seed, without_index
            )
            return render_search(bench, start.value)

    typer.echo(_run(main))


@app.command()
def notifications(
    likers: Annotated[
        int, typer.Option(min=10, help="Distinct likers of the one post (the issue: 100,000).")
    ] = 100_000,
    concurrency: Annotated[int, typer.Option(min=1, max=256, help="Likes in flight.")] = 32,
    reads: Annotated[int, typer.Option(min=1, help="Warm page reads timed, each kind.")] = 200,
    start: StartOption = Start.postgres,
) -> None:
    """One author's post liked by many distinct users: likes/s with the notification
    events against the same like path without them, the fold into ONE group (its durable
    writes counted), then a warm notifications page against a warm feed page. Exit 1
    when the group is not one group counting every liker."""
    from feedloom.bench.notifications import render_notifications, run_notifications_bench
    from feedloom.bench.stores import scratch_store, settings_from_env

    async def main() -> str:
        async with scratch_store(start.value) as store:
            settings = settings_from_env(store.run_env({}))
            typer.echo(f"bench notifications on {start.value}: {likers:,} likers", err=True)
            bench = await run_notifications_bench(settings, likers, concurrency, reads)
            report = render_notifications(bench, start.value)
            if bench.failures():
                raise RuntimeError(report)
            return report

    typer.echo(_run(main))


@app.command("import")
def import_(
    users: Annotated[int, typer.Option(min=2, help="Users of the generated graph.")] = 100_000,
    seed: Annotated[int, typer.Option(help="The graph's seed.")] = 42,
    batch: Annotated[
        int, typer.Option(min=1, max=10_000, help="--http: rows a request (10,000 at most).")
    ] = 10_000,
    http: Annotated[
        bool,
        typer.Option(
            help="Also over HTTP with one client: POST /v1/apps/users:batch, then "
            "/v1/apps/follows:batch, with an app's key (bench/import_http.py)."
        ),
    ] = False,
    start: StartOption = Start.postgres,
) -> None:
    """Bulk import of a generated graph: the CLI importer's rows/s, and with --http the
    users/s and follow rows/s of the app batch endpoints beside it, in one sitting."""
    if start is Start.cluster:
        raise typer.BadParameter("embedded or postgres", param_hint="--start")
    from feedloom.bench.import_http import render_import, run_import_bench
    from feedloom.bench.stores import StoreKind
    from feedloom.capacity.graph import generate_graph

    async def main() -> str:
        edges = generate_graph(users, seed)
        typer.echo(
            f"bench import on {start.value}: {users:,} users, {len(edges):,} follows", err=True
        )
        kind: StoreKind = "postgres" if start is Start.postgres else "embedded"
        return render_import(await run_import_bench(kind, edges, batch, http))

    typer.echo(_run(main))


def _read_feeds(users: int, seed: int, readers: int, rounds: int, start: Start) -> None:
    from feedloom.bench.custom_feeds import render_feeds, run_feeds_bench
    from feedloom.bench.stores import scratch_store, settings_from_env
    from feedloom.bench.workload import peers_workload

    async def main() -> str:
        workload = peers_workload(users, seed)
        async with scratch_store(start.value) as store:
            settings = settings_from_env(store.run_env({}))
            typer.echo(f"bench read --feeds on {start.value}: {users:,} users", err=True)
            bench = await run_feeds_bench(settings, workload, readers, rounds)
            return render_feeds(bench, start.value)

    typer.echo(_run(main))


def _read_over_http(
    users: int,
    seed: int,
    readers: int,
    rounds: int,
    start: Start,
    concurrency: int,
    surface: Surface = Surface.v1,
) -> None:
    from feedloom.bench.read_http import render_http_read, run_http_read_bench
    from feedloom.bench.workload import peers_workload

    async def main() -> str:
        workload = peers_workload(users, seed)
        typer.echo(
            f"bench read --http on {start.value}: {users:,} users, c={concurrency}", err=True
        )
        bench = await run_http_read_bench(
            start.value, workload, readers, rounds, concurrency, surface.value
        )
        return render_http_read(bench)

    typer.echo(_run(main))


def _consumers(start: Start) -> int:
    """What the worker of that store runs: `feedloom serve`'s own embedded, else
    `feedloom worker`'s default."""
    return consumers.IN_PROCESS if start is Start.embedded else consumers.SHARED_STORE


def _checked_url(url: str | None, password: str | None) -> str | None:
    from feedloom.bench.target import NotLoopback, check_loopback

    if url is None:
        return None
    if password is None:
        raise typer.BadParameter("needed with --url to log the users in", param_hint="--password")
    try:
        return check_loopback(url)
    except NotLoopback as error:
        raise typer.BadParameter(str(error), param_hint="--url") from None


def _peers_edges() -> list[Edge]:
    from feedloom.bench.workload import PEERS_FINGERPRINT, peers_workload

    workload = peers_workload()
    if workload.fingerprint() != PEERS_FINGERPRINT:
        raise RuntimeError(f"graph fingerprint {workload.fingerprint()} is not the peers'")
    return workload.edges


def _edges(graph: Path | None, users: int | None, seed: int) -> list[Edge]:
    from feedloom.capacity.graph import generate_graph
    from feedloom.cli.import_graph import read_edges

    if (graph is None) == (users is None):
        raise typer.BadParameter(
            "give exactly one of --graph FILE or --users N", param_hint="--graph"
        )
    return read_edges(graph) if graph is not None else generate_graph(users or 0, seed)


def _run(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    import uvloop

    from feedloom.bench.server import ServerFailed
    from feedloom.bench.stores import StoreUnavailable
    from feedloom.loops import eager

    try:
        # uvloop: the client must not be the bottleneck of what it measures.
        with asyncio.Runner(loop_factory=eager(uvloop.new_event_loop)) as runner:
            return runner.run(main())
    except (StoreUnavailable, ServerFailed, RuntimeError) as error:
        fail(str(error))


def _write(
    out: Path | None,
    name: str,
    data: Mapping[str, object],
    curves: Mapping[str, list[tuple[float, float]]],
    title: str,
) -> None:
    from feedloom.bench.report import write_outputs

    if out is not None:
        for path in write_outputs(out, name, data, curves, title):
            typer.echo(f"wrote {path}", err=True)
