"""`feedloom bench notifications`: one author's post liked by many distinct users as
fast as the machine sustains, through the whole like path, which now also writes a
notification event per like in the like's transaction; then the events are folded.

Measured: likes accepted per second (compare with `bench likes` in the same sitting);
how long the worker takes to fold the backlog; the author's notifications page after
it (one group, `accounts_count` = the likers); the durable writes the group took
(`feedloom_notification_group_writes_total`: one per consumed batch, not one per like)
and the rows it has (one). Then a warm notifications page of 20 groups against a warm
feed page of the same reader, p50 of `reads` each, in process.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from feedloom.bench.likes import _make_users, _timed
from feedloom.bench.users import BENCH_WORKER_ID
from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.model import Visibility
from feedloom.read.notifications import ALL_TYPES
from feedloom.read.timing import StageTimer
from feedloom.settings import Settings

GROUPS = 20  # the warm page's groups: the hot post's and 19 more


@dataclass(frozen=True)
class NotificationsBench:
    users: int
    concurrency: int
    likes_per_s: float
    fold_s: float
    accounts_count: int
    groups_on_page: int
    group_writes: int  # durable writes of the hot post's group
    group_rows: int  # its rows (1)
    warm_page_p50_ms: float
    warm_feed_p50_ms: float


async def run_notifications_bench(
    settings: Settings, users: int, concurrency: int, reads: int
) -> NotificationsBench:
    settings = settings.model_copy(update={"worker_id": BENCH_WORKER_ID})
    async with open_feedloom(settings) as feedloom:
        likers = await _make_users(feedloom, users)
        author = likers[0]
        publish = feedloom.services.publish
        post_id = (await publish(author, "like me", [], Visibility.PUBLIC, None)).post_id
        others = [
            (await publish(author, f"post {n}", [], Visibility.PUBLIC, None)).post_id
            for n in range(GROUPS - 1)
        ]
        extra = [partial(feedloom.services.engage.like, likers[1], p) for p in others]
        await _timed(settings, concurrency, extra)
        await feedloom.services.worker.process_pending()
        likes = [partial(feedloom.services.engage.like, user, post_id) for user in likers[1:]]
        run = await _timed(settings, concurrency, likes)
        writes_before = _group_writes(feedloom)
        started = time.perf_counter()
        await feedloom.services.worker.process_pending()
        fold_s = time.perf_counter() - started
        page = await feedloom.services.notifications.page(author, GROUPS, None, ALL_TYPES)
        hot = [item for item in page.items if item.group.post_id == post_id]
        page_ms = await _p50(reads, partial(_notifications_page, feedloom, author))
        feed_ms = await _p50(reads, partial(_feed_page, feedloom, author))
        return NotificationsBench(
            users=users,
            concurrency=concurrency,
            likes_per_s=run.likes_per_s,
            fold_s=fold_s,
            accounts_count=hot[0].group.accounts_count if hot else 0,
            groups_on_page=len(page.items),
            group_writes=int(_group_writes(feedloom) - writes_before),
            group_rows=len(hot),
            warm_page_p50_ms=page_ms,
            warm_feed_p50_ms=feed_ms,
        )


def _group_writes(feedloom: Feedloom) -> float:
    value = feedloom.metrics.registry.get_sample_value("feedloom_notification_group_writes_total")
    return value or 0.0


async def _notifications_page(feedloom: Feedloom, user_id: int) -> None:
    await feedloom.services.notifications.page(user_id, GROUPS, None, ALL_TYPES)


async def _feed_page(feedloom: Feedloom, user_id: int) -> None:
    await feedloom.services.home_feed.page(user_id, 20, None, StageTimer())


async def _p50(reads: int, read: Callable[[], Awaitable[None]]) -> float:
    await read()  # warm
    timings = []
    for _ in range(reads):
        started = time.perf_counter()
        await read()
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def render_notifications(bench: NotificationsBench, store: str) -> str:
    one = bench.group_rows == 1 and bench.accounts_count == bench.users - 1
    return "\n".join(
        [
            f"## bench notifications on {store}: one post, {bench.users - 1:,} distinct "
            f"likers, {bench.concurrency} in flight",
            "",
            "| likes/s accepted | fold s | accounts_count | group rows | group writes "
            "| warm page p50 ms (20 groups) | warm feed p50 ms |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {bench.likes_per_s:,.0f} | {bench.fold_s:.2f} | {bench.accounts_count:,} "
            f"| {bench.group_rows} | {bench.group_writes:,} | {bench.warm_page_p50_ms:.2f} "
            f"| {bench.warm_feed_p50_ms:.2f} |",
            "",
            f"The author's page shows {bench.groups_on_page} groups; the hot post's is "
            + ("one group counting every liker." if one else "NOT one group of every liker."),
        ]
    )
