"""Displayed like/comment counts: hot posts batched and sharded, truth recounted on a miss.

A like writes its unique (post, user) row at once. On an ordinary post its +1 is
written through to the shared counter right away: whoever liked it sees it counted on
any process. A post that takes `hot_per_flush` or more likes and comments within one
flush interval on this process is hot: its deltas collapse into one increment per
flush (that is what keeps a hot post from becoming a hot key), written round-robin to
one of its sub-counters (CounterStore, summed on read). It cools after `cool_flushes`
quieter intervals and is demoted: its sub-counters are folded back.

Read-your-likes on a hot post: this process adds its own pending deltas on read, so a
liker served by the process that took the like sees it at once; other processes see
it within a flush interval.

Monotone for a viewer: while a flush's increment is in flight, a read of the counter
cannot tell whether its reply came before or after the increment landed, so adding
the flushed deltas could count them twice (and the next read would step back), and
leaving them out could drop them. Reads of hot posts and flushes therefore never
overlap (`FlightGate`): a flush waits for the reads already running (one round trip),
and reads that arrive meanwhile wait for the flush to land (one more). Flushes come
once per interval, so that wait is paid at most once per interval. The count this
process shows never steps back between two reads (unlikes and repairs aside).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Collection, Sequence
from dataclasses import dataclass, replace

from prometheus_client import Gauge

from feedloom.domain.model import Counts
from feedloom.ports import CounterStore, Engagement

NOTHING = Counts()


@dataclass(frozen=True, slots=True)
class HotRules:
    hot_per_flush: int = 50  # likes + comments on one post within one flush interval
    shards: int = 16
    cool_flushes: int = 60  # quieter intervals before a hot post is demoted


class FlightGate:
    """Reads of hot counters run together; a flight runs alone (writer first)."""

    def __init__(self) -> None:
        self._reads = self._flights = 0
        self._no_reads, self._no_flight = asyncio.Event(), asyncio.Event()
        self._no_reads.set()
        self._no_flight.set()

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[None]:
        while self._flights:
            await self._no_flight.wait()
        self._reads += 1
        self._no_reads.clear()
        try:
            yield
        finally:
            self._reads -= 1
            if not self._reads:
                self._no_reads.set()

    @contextlib.asynccontextmanager
    async def flying(self) -> AsyncIterator[None]:
        self._flights += 1
        self._no_flight.clear()  # reads arriving from now on wait for the landing
        try:
            while self._reads:
                await self._no_reads.wait()
            yield
        finally:
            self._flights -= 1
            if not self._flights:
                self._no_flight.set()


class CounterBuffer:
    def __init__(
        self, counters: CounterStore, rules: HotRules | None = None, hot_gauge: Gauge | None = None
    ) -> None:
        self._counters, self._rules, self._hot_gauge = counters, rules or HotRules(), hot_gauge
        self._likes: defaultdict[int, int] = defaultdict(int)
        self._comments: defaultdict[int, int] = defaultdict(int)
        self._in_flight: dict[int, Counts] = {}
        self._hits: Counter[int] = Counter()
        self._hot: dict[int, int] = {}  # post -> quiet flushes left before demotion
        self._next_shard: dict[int, int] = {}
        self.gate = FlightGate()

    async def add(self, post_id: int, likes: int = 0, comments: int = 0) -> None:
        self._hits[post_id] += 1
        if post_id in self._hot or self._hits[post_id] >= self._rules.hot_per_flush:
            self._hot.setdefault(post_id, self._rules.cool_flushes)
            self._likes[post_id] += likes
            self._comments[post_id] += comments
        else:
            await self._counters.increment_if_present({post_id: Counts(likes, comments)})

    def hot(self, post_id: int) -> bool:
        return post_id in self._hot

    def any_hot(self, post_ids: Collection[int]) -> bool:
        """Whether a flush could change any of these counters under a read."""
        if not self._hot and not self._in_flight:
            return False
        return any(post_id in self._hot or post_id in self._in_flight for post_id in post_ids)

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
        return not self._likes and not self._comments and not self._in_flight

    def pending(self, post_id: int) -> Counts:
        """Deltas of this process not yet written (or being written)."""
        flying = self._in_flight.get(post_id, NOTHING)
        return Counts(
            likes=self._likes.get(post_id, 0) + flying.likes,
            comments=self._comments.get(post_id, 0) + flying.comments,
        )

    def forget(self, post_ids: Sequence[int]) -> None:
        """Drop pending deltas of posts just recounted from the truth: the recount
        already includes them, and adding them again would count twice."""
        for post_id in post_ids:
            self._likes.pop(post_id, None)
            self._comments.pop(post_id, None)

    async def flush(self) -> int:
        """Write the hot posts' deltas, one increment each, to one sub-counter each;
        demote the posts that cooled. Returns how many posts were written."""
        async with self.gate.flying():
            deltas = self.drain()
            cooled = self._cool_down()
            sharded = {
                post_id: self._shard_for(post_id) for post_id in deltas if post_id in self._hot
            }
            if self._hot_gauge is not None:
                self._hot_gauge.set(len(self._hot))
            self._in_flight = deltas
            try:
                if deltas:
                    await self._counters.increment_if_present(deltas, sharded)
                if cooled:
                    await self._counters.demote(cooled)
            finally:
                self._in_flight = {}
        return len(deltas)

    def _cool_down(self) -> list[int]:
        hits, self._hits = self._hits, Counter()
        cooled = []
        for post_id in list(self._hot):
            if hits[post_id] >= self._rules.hot_per_flush:
                self._hot[post_id] = self._rules.cool_flushes
                continue
            self._hot[post_id] -= 1
            if self._hot[post_id] <= 0:
                del self._hot[post_id]
                self._next_shard.pop(post_id, None)
                cooled.append(post_id)
        return cooled

    def _shard_for(self, post_id: int) -> int:
        # Each process starts at a random sub-counter, so processes spread out too.
        shard = self._next_shard.get(post_id, random.randrange(self._rules.shards))
        self._next_shard[post_id] = (shard + 1) % self._rules.shards
        return shard


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
        found = await self._cached(post_ids)
        missing = [post_id for post_id in post_ids if post_id not in found]
        if missing:
            found.update(await self.recount(missing))
        return found

    async def recount(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """Count these posts again from the truth and cache that: after a miss, or when
        whose engagement counts changed (an account suspended, reinstated, erased)."""
        # The truth already holds every like taken: pending deltas are not added.
        recounted = await self._engagement.true_counts(post_ids)
        self._buffer.forget(post_ids)
        await self._counters.set_many(recounted)
        return recounted

    async def _cached(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """The cached counters plus this process's pending deltas; for hot posts, read
        where no flush can land under the read (module doc)."""
        if not self._buffer.any_hot(post_ids):
            return self._with_all_pending(await self._counters.get_many(post_ids))
        async with self._buffer.gate.reading():
            return self._with_all_pending(await self._counters.get_many(post_ids))

    def _with_all_pending(self, found: dict[int, Counts]) -> dict[int, Counts]:
        if self._buffer.empty:
            return found
        return {post_id: self._with_pending(post_id, got) for post_id, got in found.items()}

    def _with_pending(self, post_id: int, counts: Counts) -> Counts:
        pending = self._buffer.pending(post_id)
        if pending == NOTHING:
            return counts
        return Counts(
            likes=max(0, counts.likes + pending.likes),
            comments=max(0, counts.comments + pending.comments),
        )
