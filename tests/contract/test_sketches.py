"""Contract: the approximate counters (ViewerSketches, TrendingStore) on every adapter,
and their accuracy against exact counts on generated workloads."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from tests.contract.conftest import Caches

HOUR = 3_600
# Ten minutes into an hour: the previous hour's engagement still counts 5/6.
AT = datetime(2026, 12, 1, 12, 10, tzinfo=UTC)


async def test_a_viewer_counts_once_per_post_however_often_served(caches: Caches) -> None:
    sketches = caches.viewer_sketches()
    for _ in range(3):
        await sketches.served(7, [1, 2])
    assert await sketches.served(8, [1]) == {1: 2}
    assert await sketches.served(7, [2]) == {2: 1}


async def test_distinct_viewers_are_within_a_few_percent_of_the_exact_count(
    caches: Caches,
) -> None:
    sketches = caches.viewer_sketches()
    rng = random.Random(14)
    exact: dict[int, set[int]] = {1: set(), 2: set(), 3: set()}
    for _ in range(1_500):  # pages of three posts, readers coming back often
        viewer = rng.randrange(1, 9_000)
        await sketches.served(viewer, [1, 2, 3] if viewer % 3 else [1, 3])
        for post_id in [1, 2, 3] if viewer % 3 else [1, 3]:
            exact[post_id].add(viewer)
    for viewer in range(20_000, 30_000):  # and a burst of new readers of post 1
        await sketches.served(viewer, [1])
        exact[1].add(viewer)
    estimates = await sketches.served(1, [1, 2, 3])
    for post_id, viewers in exact.items():
        viewers.add(1)
        error = abs(estimates[post_id] - len(viewers)) / len(viewers)
        assert error < 0.04, (post_id, estimates[post_id], len(viewers))


async def test_trending_is_best_first_and_the_previous_window_decays(caches: Caches) -> None:
    store = caches.trending((HOUR,))
    await store.add({1: 6.0}, AT - timedelta(hours=1))  # last hour: counts 6 * 5/6 = 5
    await store.add({2: 3.0, 3: 1.0}, AT)
    await store.add({3: 3.0}, AT)

    top = await store.top(HOUR, AT, 10)

    assert [post_id for post_id, _ in top] == [1, 3, 2]
    assert [round(score, 3) for _, score in top] == [5.0, 4.0, 3.0]
    assert await store.top(HOUR, AT + timedelta(hours=2), 10) == []


async def test_tag_trending_keeps_its_own_buckets_beside_the_posts(caches: Caches) -> None:
    posts, tags = caches.trending((HOUR,)), caches.trending((HOUR,), "tt")
    await posts.add({1: 5.0}, AT)
    await tags.add({1: 1.0, 2: 2.0}, AT)
    assert await posts.top(HOUR, AT, 10) == [(1, 5.0)]
    assert await tags.top(HOUR, AT, 10) == [(2, 2.0), (1, 1.0)]


async def test_trending_finds_the_exact_top_ten_on_a_skewed_workload(caches: Caches) -> None:
    store = caches.trending((HOUR,))
    rng = random.Random(1)
    exact: Counter[int] = Counter()
    # 40 000 likes over 5 000 posts, Zipf-like: a few posts get most of them.
    posts = list(range(1, 5_001))
    weights = [1 / rank**1.1 for rank in range(1, 5_001)]
    for _ in range(40):  # one flush a second, as the tally would send them
        batch: Counter[int] = Counter(rng.choices(posts, weights, k=1_000))
        exact.update(batch)
        await store.add({post_id: float(n) for post_id, n in batch.items()}, AT)

    found = [post_id for post_id, _ in await store.top(HOUR, AT, 10)]

    true_top = [post_id for post_id, _ in exact.most_common(10)]
    assert len(set(found) & set(true_top)) >= 9, (found, true_top)


async def test_hourly_tallies_add_up_and_read_back_per_hour(caches: Caches) -> None:
    tallies = caches.hourly()
    await tallies.add("likes", {1: 3, 2: 1}, 100)
    await tallies.add("likes", {1: 2}, 100)
    await tallies.add("likes", {2: 7}, 99)
    await tallies.add("followers", {1: 50}, 100)

    assert await tallies.busiest("likes", 100, 10) == [(1, 5), (2, 1)]
    assert await tallies.history("likes", [1, 2, 3], [98, 99, 100]) == {
        1: [0, 0, 5],
        2: [0, 7, 1],
        3: [0, 0, 0],
    }
