"""Displayed like/comment counts: batched increments, truth recounted on a miss.

A like writes its unique (post, user) row at once; the displayed count follows within
a flush interval. Deltas of many likes on one post collapse into one increment, which
is what keeps a hot post from becoming a hot lock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

from feedloom.domain.ids import lowest_id_at
from feedloom.domain.model import Counts
from feedloom.ports import CounterStore, Engagement

if TYPE_CHECKING:
    from feedloom.backend import Backend


class CounterBuffer:
    def __init__(self) -> None:
        self._likes: defaultdict[int, int] = defaultdict(int)
        self._comments: defaultdict[int, int] = defaultdict(int)

    def add(self, post_id: int, likes: int = 0, comments: int = 0) -> None:
        self._likes[post_id] += likes
        self._comments[post_id] += comments

    def drain(self) -> dict[int, Counts]:
        deltas = {
            post_id: Counts(likes=self._likes[post_id], comments=self._comments[post_id])
            for post_id in set(self._likes) | set(self._comments)
        }
        self._likes.clear()
        self._comments.clear()
        return {post_id: delta for post_id, delta in deltas.items() if delta != Counts()}

    def forget(self, post_ids: Sequence[int]) -> None:
        """Drop pending deltas of posts just recounted from the truth: the recount
        already includes them, and adding them again would count twice."""
        for post_id in post_ids:
            self._likes.pop(post_id, None)
            self._comments.pop(post_id, None)


async def flush_counts(buffer: CounterBuffer, counters: CounterStore) -> int:
    deltas = buffer.drain()
    if deltas:
        await counters.increment_if_present(deltas)
    return len(deltas)


async def displayed_counts(
    post_ids: Sequence[int], counters: CounterStore, engagement: Engagement, buffer: CounterBuffer
) -> dict[int, Counts]:
    """Counts from the counter cache; misses are recounted from the truth and cached.

    Another process's pending deltas for a recounted post can still land on top of
    the recount (a drift of a few likes); `reconcile_counts` repairs that."""
    found = await counters.get_many(post_ids)
    missing = [post_id for post_id in post_ids if post_id not in found]
    if missing:
        recounted = await engagement.true_counts(missing)
        buffer.forget(missing)
        await counters.set_many(recounted)
        found.update(recounted)
    return found


RECONCILE_WINDOW = timedelta(hours=24)
RECONCILE_LIMIT = 10_000


async def reconcile_recent_counts(backend: Backend) -> int:
    """The repair layer: recount the last day's posts from the truth (the unique likes
    and comments rows) and fix displayed counts that drifted. Run hourly by the worker."""
    since = lowest_id_at(backend.clock() - RECONCILE_WINDOW)
    post_ids = await backend.posts.recent_post_ids(since, RECONCILE_LIMIT)
    return await reconcile_counts(post_ids, backend.counters, backend.engagement)


async def reconcile_counts(
    post_ids: Sequence[int], counters: CounterStore, engagement: Engagement
) -> int:
    """Recount from the truth and overwrite drifted counters; returns how many drifted."""
    truth = await engagement.true_counts(post_ids)
    shown = await counters.get_many(post_ids)
    drifted = {post_id: counts for post_id, counts in truth.items() if shown.get(post_id) != counts}
    if drifted:
        await counters.set_many(drifted)
    return len(drifted)
