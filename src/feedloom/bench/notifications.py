"""`feedloom bench notifications`: one author's post liked by N distinct users as fast
as the machine sustains, through the whole like path, which writes a notification
event per like in the like's transaction; the worker folds them meanwhile.

Measured, in one sitting, on one store:
- likes/s accepted with the events, against the same like path WITHOUT them (the same
  use case and store, the like's row written with no event: `bench likes` as it was
  before notifications). Both run in halves, interleaved (without, with, without, with),
  each on a post of its own, the worker and the counter flusher running throughout;
  the events of a half are drained before the next half starts, so no half pays for
  another's fold. The issue's bar: with >= 0.8x without.
- the drain: how long after the last like the last event is folded; then the author's
  page must show ONE group of the hot post with `accounts_count` = N (else it fails).
- the durable writes the hot group took, counted at the SQL cursor: the statements that
  wrote `notification_groups` and the rows they changed (one per consumed batch, not
  one per like), and its rows at the end (1). Each like's outbox row (the event itself,
  deleted by its fold) is counted apart.
- a warm notifications page (20 groups) against a warm home feed page of the same
  reader: p50, and SQL statements, Redis round trips and near-cache fence PINGs per page
  (counted as `bench read` counts them).
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from feedloom.bench.likes import Run, _make_users, _timed
from feedloom.bench.read import counting
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.model import Visibility
from feedloom.ports import Engagement
from feedloom.read.notifications import ALL_TYPES
from feedloom.read.timing import StageTimer
from feedloom.settings import Settings

GROUPS = 20  # the warm page's groups: the hot post's and 19 more
DRAIN_TIMEOUT_S = 600.0
WARM_UP_LIKERS = 5  # likers of each of the 19 other posts (untimed)
BAR = 0.8  # likes/s with the events, at least this times without (the issue)


@dataclass(frozen=True)
class Warm:
    p50_ms: float
    sql: float  # statements per page
    redis: float  # round trips per page
    fences: float  # near-cache fence PINGs per page


@dataclass(frozen=True)
class GroupWrites:
    statements: int  # SQL statements that wrote notification_groups
    rows: int  # rows they changed
    batches: float  # groups written by the fold (feedloom_notification_group_writes_total)
    events: int  # outbox rows written (the likes' notification events)


@dataclass(frozen=True)
class NotificationsBench:
    likers: int
    concurrency: int
    with_events: Run
    without_events: Run
    drain_s: float  # last like accepted -> last event folded (the last half)
    accounts_count: int  # as the author's page shows it
    stored_count: int  # as the durable store holds it
    hot_groups: int  # the hot post's groups on the author's page (1)
    hot_rows: int  # and in the durable store (1)
    groups_on_page: int
    writes: GroupWrites
    page: Warm
    feed: Warm

    @property
    def ratio(self) -> float:
        return self.with_events.likes_per_s / self.without_events.likes_per_s

    def failures(self) -> list[str]:
        """What the run proves wrong (timing aside: the lead judges the figures)."""
        found = []
        if self.hot_groups != 1 or self.hot_rows != 1:
            found.append(f"the hot post has {self.hot_groups} groups shown, {self.hot_rows} kept")
        if self.accounts_count != self.likers or self.stored_count != self.likers:
            found.append(
                f"accounts_count {self.accounts_count:,} shown, {self.stored_count:,} stored,"
                f" for {self.likers:,} likers"
            )
        if self.groups_on_page != GROUPS:
            found.append(f"the page shows {self.groups_on_page} groups, not {GROUPS}")
        return found


async def run_notifications_bench(
    settings: Settings, likers: int, concurrency: int, reads: int
) -> NotificationsBench:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        author, *fans = await _make_users(feedloom, likers + 1)
        publish = feedloom.services.publish
        hot, plain, *others = [
            (await publish(author, f"post {n}", [], Visibility.PUBLIC, None)).post_id
            for n in range(GROUPS + 1)
        ]
        like = feedloom.services.engage.like
        stop = asyncio.Event()
        worker = asyncio.create_task(feedloom.services.worker.run(stop))
        try:
            # The page's 19 other groups; also the untimed warm-up of the like path and
            # of the worker (whose first step is a reconciliation run).
            seeders = fans[:WARM_UP_LIKERS]
            await _timed(
                settings, concurrency, [partial(like, u, p) for p in others for u in seeders]
            )
            await _drained(feedloom)
            with _group_writes() as written:
                batches = _folded_groups(feedloom)
                runs, drain_s = await _halves(feedloom, settings, concurrency, fans, hot, plain)
                batches = _folded_groups(feedloom) - batches
        finally:
            stop.set()
            await worker
        writes = GroupWrites(written["statements"], written["rows"], batches, written["events"])

        page = await feedloom.services.notifications.page(author, GROUPS, None, ALL_TYPES)
        shown = [item for item in page.items if item.group.post_id == hot]
        kept = await feedloom.stores.notifications.groups(author, None, 200)
        return NotificationsBench(
            likers=likers,
            concurrency=concurrency,
            with_events=_sum(runs[True]),
            without_events=_sum(runs[False]),
            drain_s=drain_s,
            accounts_count=shown[0].group.accounts_count if shown else 0,
            hot_groups=len(shown),
            stored_count=sum(g.accounts_count for g in kept if g.post_id == hot),
            hot_rows=sum(1 for group in kept if group.post_id == hot),
            groups_on_page=len(page.items),
            writes=writes,
            page=await _warm(feedloom, reads, partial(_notifications_page, feedloom, author)),
            feed=await _warm(feedloom, reads, partial(_feed_page, feedloom, author)),
        )


async def _halves(
    feedloom: Feedloom,
    settings: Settings,
    concurrency: int,
    fans: Sequence[int],
    hot: int,
    plain: int,
) -> tuple[dict[bool, list[Run]], float]:
    """The likers' likes of `hot` with their events and of `plain` without, timed by
    halves in turn (without first, then with first: neither side always runs on the
    smaller likes table or the colder process); each half's events are drained before
    the next half starts. Returns the runs by `with events`, and the last drain's time."""
    like, half = feedloom.services.engage.like, len(fans) // 2
    runs: dict[bool, list[Run]] = {False: [], True: []}
    drain_s = 0.0
    for part, order in ((fans[:half], (False, True)), (fans[half:], (True, False))):
        for events in order:
            calls = [partial(like, user, hot if events else plain) for user in part]
            store = feedloom.stores.engagement
            with contextlib.nullcontext() if events else _without_events(store):
                runs[events].append(await _timed(settings, concurrency, calls))
            if events:
                drain_s = await _drained(feedloom)
    return runs, drain_s


@contextlib.contextmanager
def _without_events(store: Engagement) -> Iterator[None]:
    """The like path without its notification event: the same use case and store, the
    like's row written with nobody to notify (as every like was before notifications).
    Shadows the store's method on this instance for the block, nothing else."""
    like = store.like

    async def silent(post_id: int, user_id: int, now: datetime, notify: int | None = None) -> bool:
        return await like(post_id, user_id, now)

    store.like = silent  # type: ignore[method-assign]
    try:
        yield
    finally:
        del store.like


async def _drained(feedloom: Feedloom) -> float:
    """Seconds until the worker has folded every notification event in the outbox."""
    started = time.perf_counter()
    while await feedloom.stores.notifications.pending():
        if time.perf_counter() - started > DRAIN_TIMEOUT_S:
            raise RuntimeError(f"notification events still pending after {DRAIN_TIMEOUT_S} s")
        await asyncio.sleep(0.02)
    return time.perf_counter() - started


@contextlib.contextmanager
def _group_writes() -> Iterator[dict[str, int]]:
    """Statements writing `notification_groups` and the rows they changed, as the
    database cursor reports them (every SQLAlchemy engine), while the block runs."""
    counts = {"statements": 0, "rows": 0, "events": 0}

    def after(_conn: Any, cursor: Any, sql: str, *_args: Any) -> None:
        verb = sql.lstrip().split(None, 1)[0].upper()
        if verb in {"INSERT", "UPDATE", "DELETE"} and "notification_groups" in sql:
            counts["statements"] += 1
            counts["rows"] += max(cursor.rowcount, 0)
        elif verb == "INSERT" and "INTO outbox " in sql:
            counts["events"] += max(cursor.rowcount, 0)

    event.listen(Engine, "after_cursor_execute", after)
    try:
        yield counts
    finally:
        event.remove(Engine, "after_cursor_execute", after)


def _folded_groups(feedloom: Feedloom) -> float:
    value = feedloom.metrics.registry.get_sample_value("feedloom_notification_group_writes_total")
    return value or 0.0


def _sum(runs: Sequence[Run]) -> Run:
    return Run(
        likes=sum(r.likes for r in runs),
        wall_s=sum(r.wall_s for r in runs),
        lock_samples=sum(r.lock_samples for r in runs),
        lock_waiting_samples=sum(r.lock_waiting_samples for r in runs),
        max_waiting=max(r.max_waiting for r in runs),
        cpu_s=sum(r.cpu_s for r in runs),
    )


async def _notifications_page(feedloom: Feedloom, user_id: int) -> None:
    await feedloom.services.notifications.page(user_id, GROUPS, None, ALL_TYPES)


async def _feed_page(feedloom: Feedloom, user_id: int) -> None:
    await feedloom.services.home_feed.page(user_id, GROUPS, None, StageTimer())


async def _warm(feedloom: Feedloom, reads: int, read: Callable[[], Awaitable[None]]) -> Warm:
    for _ in range(2):  # warm: the first read fills the caches, the second the near cache
        with feedloom.request_scope():
            await read()
    timings = []
    with counting() as counts:
        for _ in range(reads):
            started = time.perf_counter()
            with feedloom.request_scope():  # as the API opens it around each request
                await read()
            timings.append((time.perf_counter() - started) * 1000)
    return Warm(
        statistics.median(timings),
        counts["sql"] / reads,
        counts["redis"] / reads,
        counts["fences"] / reads,
    )


def render_notifications(bench: NotificationsBench, store: str) -> str:
    ours, base, writes = bench.with_events, bench.without_events, bench.writes
    failures = bench.failures()
    return "\n".join(
        [
            f"## bench notifications on {store}: one post, {bench.likers:,} distinct likers, "
            f"{bench.concurrency} in flight",
            "",
            "| like path | likes/s accepted | CPU ms/like (bench process) | lock-wait samples |",
            "|---|---:|---:|---:|",
            _like_row("with notification events", ours),
            _like_row("without (bench likes' path)", base),
            "",
            f"Ratio with/without: {bench.ratio:.2f}x (the bar: >= {BAR}x). Drain after the "
            f"last like: {bench.drain_s:.2f} s.",
            "",
            "| accounts_count | hot groups shown / kept | notification_groups write "
            "statements | rows they changed | groups folded | outbox event rows |",
            "|---:|---:|---:|---:|---:|---:|",
            f"| {bench.accounts_count:,} | {bench.hot_groups} / {bench.hot_rows} "
            f"| {writes.statements:,} | {writes.rows:,} | {writes.batches:,.0f} "
            f"| {writes.events:,} |",
            "",
            "| warm page (same reader) | p50 ms | SQL statements | Redis round trips "
            "| fence PINGs |",
            "|---|---:|---:|---:|---:|",
            _warm_row(f"notifications ({GROUPS} groups)", bench.page),
            _warm_row(f"home feed ({GROUPS} posts)", bench.feed),
            "",
            f"Notifications page p50 / feed page p50: "
            f"{bench.page.p50_ms / bench.feed.p50_ms:.2f}x (the bar: <= 1.5x).",
            "",
            "Correct: one group counting every liker, 20 groups on the page."
            if not failures
            else "WRONG: " + "; ".join(failures),
        ]
    )


def _like_row(name: str, run: Run) -> str:
    lock = f"{run.lock_waiting_samples} of {run.lock_samples}" if run.lock_samples else "n/a"
    cpu_ms = run.cpu_s * 1000 / max(run.likes, 1)
    return f"| {name} | {run.likes_per_s:,.0f} | {cpu_ms:.1f} | {lock} |"


def _warm_row(name: str, warm: Warm) -> str:
    return f"| {name} | {warm.p50_ms:.2f} | {warm.sql:.2f} | {warm.redis:.2f} | {warm.fences:.2f} |"
