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
