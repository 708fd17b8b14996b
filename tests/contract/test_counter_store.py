"""Contract: displayed like/comment counts (CounterStore), on every adapter."""

from __future__ import annotations

from feedloom.domain.model import Counts
from tests.contract.conftest import Caches


async def test_counts_round_trip_and_uncached_posts_are_left_out(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=3, comments=1), 2: Counts()})
    assert await counters.get_many([1, 2, 3]) == {1: Counts(3, 1), 2: Counts(0, 0)}


async def test_deltas_apply_only_to_cached_counters(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=3, comments=1)})
    await counters.increment_if_present({1: Counts(likes=2, comments=-1), 2: Counts(likes=5)})
    assert await counters.get_many([1, 2]) == {1: Counts(likes=5, comments=0)}


async def test_a_count_never_goes_below_zero(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=1, comments=0)})
    await counters.increment_if_present({1: Counts(likes=-3, comments=-1)})
    await counters.increment_if_present({1: Counts(likes=1)})
    assert await counters.get_many([1]) == {1: Counts(likes=1, comments=0)}


async def test_a_hot_posts_sub_counters_are_summed_on_read(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=10, comments=1), 2: Counts(likes=1)})
    await counters.increment_if_present({1: Counts(likes=5)}, sharded={1: 3})
    await counters.increment_if_present({1: Counts(likes=2, comments=2)}, sharded={1: 7})
    await counters.increment_if_present({1: Counts(likes=-1), 2: Counts(likes=1)}, sharded={1: 3})
    assert await counters.get_many([1, 2]) == {1: Counts(16, 3), 2: Counts(2, 0)}


async def test_demoting_folds_the_sub_counters_into_the_counter(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=10)})
    await counters.increment_if_present({1: Counts(likes=5)}, sharded={1: 0})
    await counters.demote([1])
    await counters.increment_if_present({1: Counts(likes=1)})
    assert await counters.get_many([1]) == {1: Counts(16, 0)}


async def test_a_recount_replaces_the_total_sub_counters_included(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=10)})
    await counters.increment_if_present({1: Counts(likes=5)}, sharded={1: 2})
    await counters.set_many({1: Counts(likes=12)})
    assert await counters.get_many([1]) == {1: Counts(12, 0)}


async def test_every_incremented_post_is_touched_until_taken(caches: Caches) -> None:
    counters = caches.counters()
    await counters.set_many({1: Counts(likes=1)})
    await counters.increment_if_present({1: Counts(likes=1), 2: Counts(likes=1)}, sharded={1: 0})
    await counters.increment_if_present({3: Counts(comments=1)})
    first = await counters.take_touched(2)
    rest = await counters.take_touched(10)
    assert sorted(first + rest) == [1, 2, 3] and len(first) == 2
    assert await counters.take_touched(10) == []
