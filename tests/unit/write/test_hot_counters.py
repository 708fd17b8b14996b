"""The counter buffer writes ordinary posts through, batches and shards hot ones and
demotes them when they cool (lookups/counts.py); reconciliation drains what changed
and reports the drift it finds (write/counting.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from feedloom.domain.model import Counts
from feedloom.lookups.counts import CounterBuffer, DisplayedCounts, HotRules
from feedloom.metrics import Metrics
from feedloom.write.counting import ReconcileCounts
from tests.unit.fakes import FakeCounterStore, FakeEngagement

NOW = datetime(2026, 12, 1, tzinfo=UTC)
RULES = HotRules(hot_per_flush=3, shards=4, cool_flushes=2)


class RecordingCounters(FakeCounterStore):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[tuple[dict[int, Counts], dict[int, int]]] = []
        self.demoted: list[int] = []

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        self.writes.append((dict(deltas), dict(sharded or {})))
        await super().increment_if_present(deltas, sharded)

    async def demote(self, post_ids: Sequence[int]) -> None:
        self.demoted.extend(post_ids)


async def test_an_ordinary_like_is_written_through_at_once() -> None:
    counters = RecordingCounters()
    buffer = CounterBuffer(counters, RULES)
    await buffer.add(1, likes=1)
    assert counters.writes == [({1: Counts(likes=1)}, {})]
    assert buffer.empty and not buffer.hot(1)


async def test_a_hot_post_is_batched_into_one_sharded_write_per_flush() -> None:
    counters = RecordingCounters()
    buffer = CounterBuffer(counters, RULES)
    for _ in range(10):
        await buffer.add(1, likes=1)

    assert buffer.hot(1) and len(counters.writes) == 2  # two written through, then hot
    assert buffer.pending(1) == Counts(likes=8)  # the liker's process counts them now
    await buffer.flush()

    deltas, sharded = counters.writes[-1]
    assert deltas == {1: Counts(likes=8)} and list(sharded) == [1]
    assert buffer.pending(1) == Counts()


async def test_sub_counters_are_taken_in_turn() -> None:
    counters = RecordingCounters()
    buffer = CounterBuffer(counters, RULES)
    shards = []
    for _ in range(4):
        for _ in range(3):
            await buffer.add(1, likes=1)
        await buffer.flush()
        shards.append(counters.writes[-1][1][1])
    assert sorted(shards) == [0, 1, 2, 3]


async def test_a_hot_post_is_demoted_after_quiet_flushes() -> None:
    counters = RecordingCounters()
    buffer = CounterBuffer(counters, RULES)
    for _ in range(3):
        await buffer.add(1, likes=1)
    await buffer.flush()  # busy
    await buffer.add(1, likes=1)
    await buffer.flush()  # quiet 1: still hot, the like is batched
    assert counters.demoted == [] and buffer.hot(1)
    await buffer.flush()  # quiet 2: cooled
    assert counters.demoted == [1] and not buffer.hot(1)
    await buffer.add(1, likes=1)
    assert counters.writes[-1] == ({1: Counts(likes=1)}, {})  # written through again


async def test_reconciliation_recounts_touched_posts_and_reports_drift() -> None:
    counters, engagement, metrics = FakeCounterStore(), FakeEngagement(), Metrics()
    await counters.set_many({1: Counts(likes=5), 2: Counts(likes=1)})
    await counters.increment_if_present({1: Counts(likes=1), 2: Counts()})
    await engagement.like(1, 100, NOW)
    await engagement.like(2, 100, NOW)
    reconcile = ReconcileCounts(counters, engagement, metrics)

    assert await reconcile.engaged() == 1

    assert await counters.get_many([1, 2]) == {1: Counts(likes=1), 2: Counts(likes=1)}
    assert metrics.registry.get_sample_value("feedloom_count_drift_posts") == 1
    assert metrics.registry.get_sample_value("feedloom_count_drift_abs") == 5
    assert await reconcile.engaged() == 0  # nothing touched since


async def test_the_liker_of_a_hot_post_sees_their_like_before_the_flush_and_after() -> None:
    counters = RecordingCounters()
    await counters.set_many({1: Counts()})
    buffer = CounterBuffer(counters, RULES)
    counts = DisplayedCounts(counters, FakeEngagement(), buffer)
    shown = []
    for _ in range(RULES.hot_per_flush + 2):  # written through, then buffered once hot
        await buffer.add(1, likes=1)
        shown.append((await counts.get([1]))[1].likes)
    assert buffer.hot(1)
    await buffer.flush()
    shown.append((await counts.get([1]))[1].likes)
    assert shown == [1, 2, 3, 4, 5, 5]  # each like counted at once, none twice


class GatedCounters(FakeCounterStore):
    """Replies held at gates: an increment lands at once but its reply waits, and a
    read takes its value at once but its reply waits (what a round trip looks like to
    the process while another call's round trip runs)."""

    def __init__(self) -> None:
        super().__init__()
        self.increment_replies, self.read_replies = asyncio.Event(), asyncio.Event()
        self.increment_replies.set()
        self.read_replies.set()
        self.reads = 0

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        await super().increment_if_present(deltas, sharded)
        await self.increment_replies.wait()

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        self.reads += 1
        found = await super().get_many(post_ids)
        await self.read_replies.wait()
        return found


async def hot_post(counters: FakeCounterStore, likes: int) -> tuple[CounterBuffer, DisplayedCounts]:
    await counters.set_many({1: Counts()})
    buffer = CounterBuffer(counters, RULES)
    for _ in range(likes):
        await buffer.add(1, likes=1)
    assert buffer.hot(1)
    return buffer, DisplayedCounts(counters, FakeEngagement(), buffer)


async def let_run() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_read_while_a_flush_lands_counts_the_flushed_likes_once() -> None:
    counters = GatedCounters()
    buffer, counts = await hot_post(counters, likes=5)  # 2 written through, 3 pending
    assert (await counts.get([1]))[1].likes == 5

    counters.increment_replies.clear()
    counters.read_replies.clear()
    flushing = asyncio.create_task(buffer.flush())
    await let_run()  # the increment has landed; its reply has not come back
    reading = asyncio.create_task(counts.get([1]))
    await let_run()
    counters.read_replies.set()  # a read's reply may come back first
    await let_run()
    counters.increment_replies.set()
    await flushing
    assert (await reading)[1].likes == 5  # not 5 + the 3 flushed counted again
    assert (await counts.get([1]))[1].likes == 5


async def test_a_flush_waits_for_a_read_of_its_post_already_running() -> None:
    counters = GatedCounters()
    buffer, counts = await hot_post(counters, likes=5)  # 2 written through, 3 pending

    counters.read_replies.clear()
    reading = asyncio.create_task(counts.get([1]))
    await let_run()  # the read took the counter; its reply waits
    flushing = asyncio.create_task(buffer.flush())
    await let_run()
    assert not flushing.done() and counters.counts[1].likes == 2  # nothing landed yet
    counters.read_replies.set()
    assert (await reading)[1].likes == 5  # 2 read + the 3 still pending, once
    await flushing
    assert counters.counts[1].likes == 5 and (await counts.get([1]))[1].likes == 5


async def test_the_shown_count_of_a_hot_post_never_steps_back() -> None:
    """Likes, flushes and reads interleaved at random (seeded) over a store whose
    replies come back after random delays: every reader's sequence is monotone, never
    above the likes taken, and equal to them once everything is flushed."""
    rng = random.Random(7)
    counters = DelayedCounters(rng)
    buffer, counts = await hot_post(counters, likes=RULES.hot_per_flush)
    taken = RULES.hot_per_flush

    async def like(times: int) -> None:
        nonlocal taken
        for _ in range(times):
            taken += 1  # before: a written-through like lands during the call
            await buffer.add(1, likes=1)
            await asyncio.sleep(rng.random() / 1000)

    async def flush(times: int) -> None:
        for _ in range(times):
            await buffer.flush()
            await asyncio.sleep(rng.random() / 500)

    async def read(times: int) -> list[tuple[int, int]]:
        seen = []
        for _ in range(times):
            shown = (await counts.get([1]))[1].likes
            seen.append((shown, taken))
        return seen

    readers = [asyncio.create_task(read(200)) for _ in range(4)]
    await asyncio.gather(like(300), flush(60), *readers)
    await buffer.flush()
    for reader in readers:
        shown = [value for value, _ in reader.result()]
        assert shown == sorted(shown)
        assert all(value <= likes for value, likes in reader.result())
    assert (await counts.get([1]))[1].likes == taken


class DelayedCounters(FakeCounterStore):
    """Each call does its work at a random point of a random delay."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self._rng = rng

    async def _delay(self) -> None:
        await asyncio.sleep(self._rng.random() / 2000)

    async def increment_if_present(
        self, deltas: Mapping[int, Counts], sharded: Mapping[int, int] | None = None
    ) -> None:
        await self._delay()
        await super().increment_if_present(deltas, sharded)
        await self._delay()

    async def get_many(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        await self._delay()
        found = await super().get_many(post_ids)
        await self._delay()
        return found
