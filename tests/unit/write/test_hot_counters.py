"""The counter buffer writes ordinary posts through, batches and shards hot ones and
demotes them when they cool (lookups/counts.py); reconciliation drains what changed
and reports the drift it finds (write/counting.py)."""

from __future__ import annotations

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
