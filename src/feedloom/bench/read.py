"""`feedloom bench read`: the home feed read at the library level, on the peers' workload.

The peers' protocol (shared/peers/README.md): every user posts once, in user order; the
same 2,000 sampled readers read their first page of 20 after a warm-up of 200 others,
one sequential client, three rounds, the median round quoted. feedloom's whole read path
runs (relations, candidates, read-time filters, counts, liked_by_me, hydration), called
in-process like the peers' libraries. Every page is checked outside the timed loop
against the expected newest 20 posts of the reader's followees and the reader.

With `--followed-tags N` (bench/tagged_reads.py), the same readers are timed again
after each follows N tags: the home feed with a pulled tag source, beside the plain read.

In the same run, the naive pull baseline (SQLite, one `IN (followees) ORDER BY id DESC
LIMIT 20` per read, no hydration) reads the same pages for the same readers. Durable-
store statements and Redis round trips are counted during the timed loops.
"""

from __future__ import annotations

import contextlib
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from feedloom.api.serving import settle_heap
from feedloom.bench.conversations import Activity, expected_page, plan, shares, store_activities
from feedloom.bench.stores import redis_cpu_seconds
from feedloom.bench.tagged_reads import expected_tagged_page, follow_tags, tag_of
from feedloom.bench.users import BENCH_WORKER_ID, store_posts
from feedloom.bench.workload import PEERS_SEED, Workload, sample_readers
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.read.timing import StageTimer
from feedloom.settings import Settings

PAGE = 20
SCROLL, SCROLLERS = 10, 200  # --conversations: pages of one scroll, readers who scroll


@dataclass
class Round:
    latencies_s: list[float]
    wall_s: float
    sql_statements: int = 0
    redis_round_trips: int = 0
    fence_pings: int = 0  # the near cache's PINGs, beside a read's round trips
    cpu_s: float = 0.0  # this process's CPU time over the round
    redis_cpu_s: float | None = None  # Redis' (every node's) CPU time, when it has one

    def summary(self) -> dict[str, float]:
        ordered = sorted(self.latencies_s)
        reads = len(ordered)
        return {
            "p50_ms": percentile(ordered, 50) * 1000,
            "p99_ms": percentile(ordered, 99) * 1000,
            "reads_per_s": reads / self.wall_s,
            "sql_per_read": self.sql_statements / reads,
            "redis_round_trips_per_read": self.redis_round_trips / reads,
            "fence_pings_per_read": self.fence_pings / reads,
            "cpu_ms_per_read": self.cpu_s / reads * 1000,
            "redis_cpu_ms_per_read": -1.0
            if self.redis_cpu_s is None
            else self.redis_cpu_s / reads * 1000,
        }


def headline(rounds: Sequence[Round]) -> dict[str, float]:
    """The summary of the round with the median reads/s, as the peers quote it."""
    summaries = sorted((r.summary() for r in rounds), key=lambda s: s["reads_per_s"])
    return summaries[len(summaries) // 2]


@dataclass
class ReadBench:
    fingerprint: str
    users: int
    feedloom: list[Round] = field(default_factory=list)
    baseline: list[Round] = field(default_factory=list)
    mismatches: int = 0
    setup_s: float = 0.0
    conversations: dict[str, float] | None = None  # the activity's shares, if any
    scrolls: int = 0  # readers who scrolled `SCROLL` pages (conversations only)
    duplicates: int = 0  # originals shown twice within one of those scrolls
    followed_tags: int = 0  # tags each reader followed for the `tagged` rounds
    tagged: list[Round] = field(default_factory=list)


def percentile(ordered: Sequence[float], p: float) -> float:
    """Nearest rank, as the peers' workload.py computes it."""
    index = round(p / 100.0 * len(ordered) + 0.5) - 1
    return ordered[max(0, min(len(ordered) - 1, index))]


async def run_read_bench(
    settings: Settings,
    workload: Workload,
    readers: int,
    warmup: int,
    rounds: int,
    conversations: bool = False,
    followed_tags: int = 0,
) -> ReadBench:
    result = ReadBench(workload.fingerprint(), workload.users, followed_tags=followed_tags)
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        started = time.monotonic()
        if conversations:
            user_ids, acts, post_of = await _publish_conversations(feedloom, workload)
            result.conversations = shares(acts)
        else:
            user_ids, post_of = await _publish_one_post_each(
                feedloom, workload, bool(followed_tags)
            )
        result.setup_s = time.monotonic() - started
        sampled = sample_readers(workload.users, readers)
        warm = [u for u in sample_readers(workload.users, warmup, salt=2) if u not in sampled]
        if conversations:
            follows = workload.followees
            pulled = _pulled(follows, settings.fanout.pull_above)
            expected = {u: expected_page(follows, acts, post_of, u, PAGE, pulled) for u in sampled}
        else:
            expected = {u: _expected_page(workload, post_of, u) for u in sampled}
        settle_heap()  # as a server does once it is up: the setup's heap is not a read's
        for user in warm:
            await _read(feedloom, user_ids[user])
        for _ in range(rounds):
            redis_before = await redis_cpu_seconds(settings)
            measured, pages = await _timed_round(feedloom, [user_ids[u] for u in sampled])
            redis_after = await redis_cpu_seconds(settings)
            if redis_before is not None and redis_after is not None:
                measured.redis_cpu_s = redis_after - redis_before
            result.feedloom.append(measured)
            result.mismatches += sum(
                page != expected[user] for user, page in zip(sampled, pages, strict=True)
            )
        if followed_tags:
            await follow_tags(feedloom, [*sampled, *warm], user_ids, followed_tags)
            expected = {
                u: expected_tagged_page(workload, post_of, u, followed_tags, PAGE) for u in sampled
            }
            for user in warm:
                await _read(feedloom, user_ids[user])
            for _ in range(rounds):
                measured, pages = await _timed_round(feedloom, [user_ids[u] for u in sampled])
                result.tagged.append(measured)
                result.mismatches += sum(
                    page != expected[user] for user, page in zip(sampled, pages, strict=True)
                )
            expected = {u: _expected_page(workload, post_of, u) for u in sampled}
        if conversations:  # outside the timed rounds
            for user in sampled[:SCROLLERS]:
                scrolled = await _scroll(feedloom, user_ids[user])
                result.scrolls += 1
                result.duplicates += len(scrolled) - len(set(scrolled))
    if conversations:
        return result  # the naive pull knows no replies or reposts: no baseline
    with _baseline(workload, post_of) as read_baseline:
        for user in warm:
            read_baseline(user)
        for _ in range(rounds):
            measured, pages = _timed_baseline_round(read_baseline, sampled)
            result.baseline.append(measured)
            result.mismatches += sum(
                page != expected[user] for user, page in zip(sampled, pages, strict=True)
            )
    return result


async def _publish_one_post_each(
    feedloom: Feedloom, workload: Workload, tagged: bool = False
) -> tuple[dict[int, int], dict[int, int]]:
    """Import the graph (timelines built), post once per user in user order (IDs rise
    with the user number; `tagged`: each with its tag) and fan everything out. Returns
    user -> ID, user -> post ID."""
    imported = await feedloom.services.graph_import.run(
        workload.edges, "not-a-login", build_timelines=True
    )
    user_ids = {int(csv_id): user_id for csv_id, user_id in imported.user_ids.items()}
    authors = [user_ids[u] for u in range(workload.users)]
    first_id = feedloom.runtime.ids.next_id()
    tags = [tag_of(u) for u in range(workload.users)] if tagged else None
    await store_posts(feedloom, authors, 1, tags)
    await feedloom.services.worker.process_pending()
    by_author = await feedloom.stores.archive.author_post_ids(authors, None, 1)
    post_of = {u: by_author[user_ids[u]][0] for u in range(workload.users)}
    assert all(post_id > first_id for post_id in post_of.values())
    return user_ids, post_of


async def _publish_conversations(
    feedloom: Feedloom, workload: Workload
) -> tuple[dict[int, int], list[Activity], dict[int, int]]:
    """As `_publish_one_post_each`, with the conversational workload's activity."""
    imported = await feedloom.services.graph_import.run(
        workload.edges, "not-a-login", build_timelines=True
    )
    user_ids = {int(csv_id): user_id for csv_id, user_id in imported.user_ids.items()}
    acts = plan(workload.followees, PEERS_SEED)
    entry = await store_activities(feedloom, acts, user_ids)
    await feedloom.services.worker.process_pending()
    return user_ids, acts, entry


async def _scroll(feedloom: Feedloom, user_id: int) -> list[int]:
    """The posts shown by up to `SCROLL` pages of one scroll, in order."""
    shown: list[int] = []
    cursor = None
    for _ in range(SCROLL):
        with feedloom.request_scope():
            page = await feedloom.services.home_feed.page(user_id, PAGE, cursor, StageTimer())
        shown += [item.post.id for item in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    return shown


def _pulled(followees: list[list[int]], pull_above: int) -> frozenset[int]:
    """The users with more than `pull_above` followers: their posts are pulled."""
    followers = Counter(f for mine in followees for f in mine)
    return frozenset(user for user, count in followers.items() if count > pull_above)


def _expected_page(workload: Workload, post_of: dict[int, int], user: int) -> list[int]:
    return sorted((post_of[a] for a in [*workload.followees[user], user]), reverse=True)[:PAGE]


async def _read(feedloom: Feedloom, user_id: int) -> list[int]:
    with feedloom.request_scope():  # as the API opens it around each request
        page = await feedloom.services.home_feed.page(user_id, PAGE, None, StageTimer())
    return [item.post.id for item in page.items]


async def _timed_round(feedloom: Feedloom, user_ids: list[int]) -> tuple[Round, list[list[int]]]:
    latencies, pages = [], []
    with counting() as counts:
        started, cpu_started = time.perf_counter(), time.process_time()
        for user_id in user_ids:
            t0 = time.perf_counter()
            with feedloom.request_scope():  # as the API opens it around each request
                page = await feedloom.services.home_feed.page(user_id, PAGE, None, StageTimer())
            latencies.append(time.perf_counter() - t0)
            pages.append(page)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    measured = Round(latencies, wall, counts["sql"], counts["redis"], counts["fences"], cpu)
    return measured, [[item.post.id for item in page.items] for page in pages]


@contextlib.contextmanager
def counting() -> Iterator[dict[str, int]]:
    """Durable-store statements (every SQLAlchemy engine), Redis round trips (each
    write to a Redis connection: a command, a pipeline or an automatic batch, over
    redis-py's connections or a multiplexed one) and the near cache's fence PINGs
    (sent on its own connection, beside a round trip) while the block runs."""
    from redis.asyncio.connection import AbstractConnection

    from feedloom.adapters.redis.wire.multiplexed import MultiplexedConnection
    from feedloom.adapters.redis.wire.near_cache import Listener

    counts = {"sql": 0, "redis": 0, "fences": 0}

    def on_statement(*_args: Any) -> None:
        counts["sql"] += 1

    def counted(method: Callable[..., Any]) -> Callable[..., Any]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            counts["redis"] += 1
            return await method(*args, **kwargs)

        return call

    def fenced(ping: Callable[[Listener], bool]) -> Callable[[Listener], bool]:
        def call(listener: Listener) -> bool:
            sent = ping(listener)
            counts["fences"] += sent
            return sent

        return call

    send, batch = AbstractConnection.send_packed_command, MultiplexedConnection.execute
    ping = Listener.ping
    event.listen(Engine, "before_cursor_execute", on_statement)
    AbstractConnection.send_packed_command = counted(send)  # type: ignore[method-assign]
    MultiplexedConnection.execute = counted(batch)  # type: ignore[method-assign]
    Listener.ping = fenced(ping)  # type: ignore[method-assign,assignment]
    try:
        yield counts
    finally:
        AbstractConnection.send_packed_command = send  # type: ignore[method-assign]
        MultiplexedConnection.execute = batch  # type: ignore[method-assign]
        Listener.ping = ping  # type: ignore[method-assign]
        event.remove(Engine, "before_cursor_execute", on_statement)


@contextlib.contextmanager
def _baseline(workload: Workload, post_of: dict[int, int]) -> Iterator[Callable[[int], list[int]]]:
    """The peers' naive pull model: SQLite, posts indexed on (author_id, id)."""
    with tempfile.TemporaryDirectory() as directory:
        db = sqlite3.connect(Path(directory) / "pull.sqlite3")
        db.executescript(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
            "CREATE TABLE follows(follower_id INTEGER, followee_id INTEGER,"
            " PRIMARY KEY (follower_id, followee_id));"
            "CREATE TABLE posts(id INTEGER PRIMARY KEY, author_id INTEGER, created_at REAL,"
            " body TEXT);"
            "CREATE INDEX posts_author_id ON posts(author_id, id);"
        )
        db.executemany(
            "INSERT INTO follows VALUES (?, ?)",
            ((u, v) for u, fs in enumerate(workload.followees) for v in fs),
        )
        db.executemany(
            "INSERT INTO posts VALUES (?, ?, ?, ?)",
            ((post_of[u], u, 0.0, "x") for u in range(workload.users)),
        )
        db.commit()
        query = (
            "SELECT id, author_id, created_at, body FROM posts WHERE author_id IN"
            " (SELECT followee_id FROM follows WHERE follower_id = ? UNION SELECT ?)"
            " ORDER BY id DESC LIMIT ?"
        )

        def read(user: int) -> list[int]:
            return [row[0] for row in db.execute(query, (user, user, PAGE))]

        try:
            yield read
        finally:
            db.close()


def _timed_baseline_round(
    read: Callable[[int], list[int]], users: list[int]
) -> tuple[Round, list[list[int]]]:
    latencies, pages = [], []
    started, cpu_started = time.perf_counter(), time.process_time()
    for user in users:
        t0 = time.perf_counter()
        pages.append(read(user))
        latencies.append(time.perf_counter() - t0)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return Round(latencies, wall, sql_statements=len(users), cpu_s=cpu), pages


def render_read(bench: ReadBench, store: str) -> str:
    if bench.conversations is not None:
        return render_conversations(bench, store)
    ours, base = headline(bench.feedloom), headline(bench.baseline)
    lines = [
        f"graph {bench.fingerprint} ({bench.users:,} users), store {store}, "
        f"setup {bench.setup_s:.1f} s, mismatches {bench.mismatches}",
        "",
        "| system | read p50 | p99 | reads/s | SQL/read | Redis RT/read | fence PINGs/read"
        " | CPU/read | Redis CPU/read |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        _row("feedloom (home feed, in-process)", ours),
        _row("naive SQL pull (SQLite, same run)", base),
        "",
        "per round, feedloom p50 ms: "
        + ", ".join(f"{r.summary()['p50_ms']:.3f}" for r in bench.feedloom)
        + "; baseline p50 ms: "
        + ", ".join(f"{r.summary()['p50_ms']:.3f}" for r in bench.baseline),
        f"feedloom / baseline p50: {ours['p50_ms'] / base['p50_ms']:.2f}x",
    ]
    if bench.tagged:
        tagged = headline(bench.tagged)
        lines[5:5] = [_row(f"feedloom, {bench.followed_tags} followed tags", tagged)]
        lines += [
            "per round, followed tags p50 ms: "
            + ", ".join(f"{r.summary()['p50_ms']:.3f}" for r in bench.tagged),
            f"{bench.followed_tags} followed tags / plain p50: "
            f"{tagged['p50_ms'] / ours['p50_ms']:.2f}x",
        ]
    return "\n".join(lines)


def render_conversations(bench: ReadBench, store: str) -> str:
    assert bench.conversations is not None
    ours = headline(bench.feedloom)
    share = bench.conversations
    lines = [
        f"graph {bench.fingerprint} ({bench.users:,} users), store {store}, "
        f"setup {bench.setup_s:.1f} s, mismatches {bench.mismatches}",
        f"conversations: {share['reposts']:.0%} of activity reposts, "
        f"{share['replies']:.0%} of posts replies; {bench.scrolls} scrolls of up to {SCROLL} "
        f"pages, duplicates {bench.duplicates}",
        "",
        "| system | read p50 | p99 | reads/s | SQL/read | Redis RT/read | fence PINGs/read"
        " | CPU/read | Redis CPU/read |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        _row("feedloom (home feed, in-process, conversations)", ours),
        "",
        "per round, feedloom p50 ms: "
        + ", ".join(f"{r.summary()['p50_ms']:.3f}" for r in bench.feedloom),
    ]
    return "\n".join(lines)


def _row(name: str, s: dict[str, float]) -> str:
    return (
        f"| {name} | {s['p50_ms']:.3f} ms | {s['p99_ms']:.3f} ms | {s['reads_per_s']:,.0f} | "
        f"{s['sql_per_read']:.2f} | {s['redis_round_trips_per_read']:.2f} | "
        f"{s['fence_pings_per_read']:.2f} | {s['cpu_ms_per_read']:.3f} ms | "
        f"{_ms_or_dash(s['redis_cpu_ms_per_read'])} |"
    )


def _ms_or_dash(ms: float) -> str:
    return "-" if ms < 0 else f"{ms:.3f} ms"


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
