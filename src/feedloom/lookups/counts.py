"""Displayed like/comment counts: batched increments, truth recounted on a miss.

A like writes its unique (post, user) row at once; the displayed count follows within
a flush interval. Deltas of many likes on one post collapse into one increment, which
is what keeps a hot post from becoming a hot lock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import replace

from feedloom.domain.model import Counts
from feedloom.ports import CounterStore, Engagement

NOTHING = Counts()


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

    @property
    def empty(self) -> bool:
        return not self._likes and not self._comments

    def pending(self, post_id: int) -> Counts:
        """Deltas of this process not flushed yet."""
        return Counts(likes=self._likes.get(post_id, 0), comments=self._comments.get(post_id, 0))

    def forget(self, post_ids: Sequence[int]) -> None:
        """Drop pending deltas of posts just recounted from the truth: the recount
        already includes them, and adding them again would count twice."""
        for post_id in post_ids:
            self._likes.pop(post_id, None)
            self._comments.pop(post_id, None)

    async def flush(self, counters: CounterStore) -> int:
        """Apply the collected deltas as one increment per post; returns how many."""
        deltas = self.drain()
        if deltas:
            await counters.increment_if_present(deltas)
        return len(deltas)


class DisplayedCounts:
    """Counts from the counter cache; misses are recounted from the truth and cached.
    This process's own pending deltas are added on top: whoever liked through it sees
    the like counted at once, others within a flush interval.

    Another process's pending deltas for a recounted post can still land on top of
    the recount (a drift of a few likes); the worker's reconciliation repairs that."""

    def __init__(
        self, counters: CounterStore, engagement: Engagement, buffer: CounterBuffer
    ) -> None:
        self._counters, self._engagement, self._buffer = counters, engagement, buffer

    async def seen_by(
        self, counts: dict[int, Counts], hidden_commenters: Collection[int]
    ) -> dict[int, Counts]:
        """The counts a reader is shown: without the comments hidden from them. Only
        a reader who hides someone pays the store query, and only for a page with comments
        (the common warm read needs none)."""
        commented = [post_id for post_id, shown in counts.items() if shown.comments]
        if not hidden_commenters or not commented:
            return counts
        hidden = await self._engagement.comments_by(commented, hidden_commenters)
        return {
            post_id: replace(shown, comments=max(0, shown.comments - hidden.get(post_id, 0)))
            for post_id, shown in counts.items()
        }

    async def get(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        found = await self._counters.get_many(post_ids)
        missing = [post_id for post_id in post_ids if post_id not in found]
        if missing:
            recounted = await self._engagement.true_counts(missing)
            self._buffer.forget(missing)
            await self._counters.set_many(recounted)
            found.update(recounted)
        if self._buffer.empty:
            return found
        return {post_id: self._with_pending(post_id, counts) for post_id, counts in found.items()}

    def _with_pending(self, post_id: int, counts: Counts) -> Counts:
        pending = self._buffer.pending(post_id)
        if pending == NOTHING:
            return counts
        return Counts(
            likes=max(0, counts.likes + pending.likes),
            comments=max(0, counts.comments + pending.comments),
        )
