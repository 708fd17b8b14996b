"""Contract: home timelines (TimelineStore), on every adapter."""

from __future__ import annotations

import random
from datetime import timedelta

from tests.contract.conftest import Caches

USER, OTHER = 1, 2


async def test_a_user_without_a_timeline_reads_none(caches: Caches) -> None:
    assert await caches.timelines().read(USER, None, 10) is None


async def test_an_empty_rebuilt_timeline_still_exists(caches: Caches) -> None:
    timelines = caches.timelines()
    await timelines.replace(USER, [])
    assert await timelines.read(USER, None, 10) == []
    assert await timelines.insert_if_present([USER], 7) == 1
    assert await timelines.read(USER, None, 10) == [7]


async def test_replace_keeps_the_newest_ids_newest_first_without_duplicates(
    caches: Caches,
) -> None:
    timelines = caches.timelines(length=4)
    await timelines.replace(USER, [3, 9, 1, 9, 7, 5, 3])
    assert await timelines.read(USER, None, 10) == [9, 7, 5, 3]


async def test_a_newer_post_goes_first_and_the_oldest_falls_off_a_full_timeline(
    caches: Caches,
) -> None:
    timelines = caches.timelines(length=3)
    await timelines.replace(USER, [10, 20, 30])
    await timelines.insert_if_present([USER], 40)
    assert await timelines.read(USER, None, 10) == [40, 30, 20]


async def test_a_late_post_lands_in_order_and_one_older_than_a_full_timeline_is_dropped(
    caches: Caches,
) -> None:
    timelines = caches.timelines(length=3)
    await timelines.replace(USER, [10, 30])
    await timelines.insert_if_present([USER], 20)
    assert await timelines.read(USER, None, 10) == [30, 20, 10]
    await timelines.insert_if_present([USER], 5)
    assert await timelines.read(USER, None, 10) == [30, 20, 10]
    await timelines.insert_if_present([USER], 25)
    assert await timelines.read(USER, None, 10) == [30, 25, 20]


async def test_repeated_deliveries_never_duplicate_an_id(caches: Caches) -> None:
    timelines = caches.timelines(length=5)
    await timelines.replace(USER, [10, 20, 30])
    for post_id in (30, 20, 10, 30, 40, 40, 20):
        await timelines.insert_if_present([USER], post_id)
    assert await timelines.read(USER, None, 10) == [40, 30, 20, 10]


async def test_any_order_of_late_and_repeated_inserts_keeps_exactly_the_newest_ids(
    caches: Caches,
) -> None:
    timelines = caches.timelines(length=7)
    await timelines.replace(USER, [])
    rng = random.Random(3)
    delivered = [rng.randrange(1, 60) for _ in range(200)]
    for post_id in delivered:
        await timelines.insert_if_present([USER], post_id)
    assert await timelines.read(USER, None, 100) == sorted(set(delivered), reverse=True)[:7]


async def test_ids_that_a_double_cannot_tell_apart_stay_distinct_and_ordered(
    caches: Caches,
) -> None:
    timelines = caches.timelines()
    base = 2**62  # 2**62 + 1 and 2**62 + 2 are the same float
    await timelines.replace(USER, [base + 2])
    for post_id in (base + 1, base + 3, 2**53 + 1, 2**63 - 1):
        await timelines.insert_if_present([USER], post_id)
    expected = [2**63 - 1, base + 3, base + 2, base + 1, 2**53 + 1]
    assert await timelines.read(USER, None, 10) == expected


async def test_insert_if_present_skips_users_without_a_timeline_and_counts_the_rest(
    caches: Caches,
) -> None:
    timelines = caches.timelines()
    await timelines.replace(USER, [5])
    await timelines.replace(3, [])
    assert await timelines.insert_if_present([USER, OTHER, 3, 4], 9) == 2
    assert await timelines.read(OTHER, None, 10) is None
    assert await timelines.read(USER, None, 10) == [9, 5]
    assert await timelines.read(3, None, 10) == [9]


async def test_read_pages_strictly_older_than_the_cursor(caches: Caches) -> None:
    timelines = caches.timelines()
    await timelines.replace(USER, [10, 20, 30, 40, 50])
    assert await timelines.read(USER, None, 2) == [50, 40]
    assert await timelines.read(USER, 40, 2) == [30, 20]
    assert await timelines.read(USER, 35, 10) == [30, 20, 10]
    assert await timelines.read(USER, 10, 10) == []


async def test_merge_adds_a_followees_posts_in_order_only_to_an_existing_timeline(
    caches: Caches,
) -> None:
    timelines = caches.timelines(length=4)
    await timelines.replace(USER, [10, 30])
    await timelines.merge_if_present(USER, [40, 30, 20, 5])
    assert await timelines.read(USER, None, 10) == [40, 30, 20, 10]
    await timelines.merge_if_present(OTHER, [1, 2])
    assert await timelines.read(OTHER, None, 10) is None


async def test_removing_ids_never_brings_back_one_that_fell_off(caches: Caches) -> None:
    timelines = caches.timelines(length=3)
    await timelines.replace(USER, [])
    for post_id in (1, 2, 3, 4, 5):
        await timelines.insert_if_present([USER], post_id)
    await timelines.remove(USER, [5, 99])
    assert await timelines.read(USER, None, 10) == [4, 3]


async def test_removing_every_id_leaves_an_empty_timeline_and_a_missing_one_missing(
    caches: Caches,
) -> None:
    timelines = caches.timelines()
    await timelines.replace(USER, [1, 2])
    await timelines.remove(USER, [1, 2])
    assert await timelines.read(USER, None, 10) == []
    await timelines.remove(OTHER, [1])
    assert await timelines.read(OTHER, None, 10) is None


async def test_drop_loses_the_timeline(caches: Caches) -> None:
    timelines = caches.timelines()
    await timelines.replace(USER, [1])
    await timelines.drop(USER)
    assert await timelines.read(USER, None, 10) is None


TTL_S = 0.8  # real seconds on Redis: long enough that scheduling noise cannot matter


async def test_touch_keeps_an_active_users_timeline_alive(caches: Caches) -> None:
    timelines = caches.timelines(ttl=timedelta(seconds=TTL_S))
    await timelines.replace(USER, [1])
    await timelines.replace(OTHER, [1])
    await caches.elapse(TTL_S * 0.6)
    await timelines.touch(USER)
    await caches.elapse(TTL_S * 0.6)
    assert await timelines.read(USER, None, 10) == [1]
    assert await timelines.read(OTHER, None, 10) is None
    await caches.elapse(TTL_S * 0.6)
    assert await timelines.read(USER, None, 10) is None


async def test_fan_out_does_not_keep_an_inactive_users_timeline_alive(caches: Caches) -> None:
    timelines = caches.timelines(ttl=timedelta(seconds=TTL_S))
    await timelines.replace(USER, [1])
    await caches.elapse(TTL_S * 0.6)
    await timelines.insert_if_present([USER], 2)
    await caches.elapse(TTL_S * 0.6)
    assert await timelines.insert_if_present([USER], 3) == 0
    assert await timelines.read(USER, None, 10) is None


async def test_a_timeline_tells_how_long_until_it_expires(caches: Caches) -> None:
    timelines = caches.timelines(ttl=timedelta(hours=2))
    assert await timelines.expires_in(USER) is None
    await timelines.replace(USER, [1])
    remaining = await timelines.expires_in(USER)
    assert remaining is not None and 7_000 < remaining <= 7_200


async def test_insert_many_writes_each_run_to_the_timelines_that_exist_and_counts_them(
    caches: Caches,
) -> None:
    timelines = caches.timelines(length=3)
    await timelines.replace(USER, [5])
    await timelines.replace(3, [])
    runs = [(9, [USER, OTHER, 3]), (7, [USER]), (9, (USER,)), (4, [3]), (1, [USER]), (12, [USER])]
    # Each (timeline, post) once: OTHER has no timeline, USER gets 9 twice.
    assert await timelines.insert_many(runs) == 6
    assert await timelines.read(OTHER, None, 10) is None
    assert await timelines.read(USER, None, 10) == [12, 9, 7]  # capped, no duplicate
    assert await timelines.read(3, None, 10) == [9, 4]
    assert await timelines.insert_many([]) == 0


async def test_insert_many_of_any_order_keeps_exactly_the_newest_ids(caches: Caches) -> None:
    timelines = caches.timelines(length=7)
    for user_id in (USER, OTHER):
        await timelines.replace(user_id, [])
    rng = random.Random(4)
    runs = [
        (rng.randrange(1, 60), [rng.choice((USER, OTHER)) for _ in range(rng.randrange(1, 4))])
        for _ in range(150)
    ]
    await timelines.insert_many(runs)
    for user_id in (USER, OTHER):
        expected = sorted({post for post, readers in runs if user_id in readers}, reverse=True)
        assert await timelines.read(user_id, None, 100) == expected[:7]


async def test_a_rebuild_keeps_what_a_fan_out_added_while_it_read(caches: Caches) -> None:
    timelines = caches.timelines(length=4)
    await timelines.hold(USER)  # the rebuild starts: missing, so held empty
    assert await timelines.read_page(USER, None, 10) == ([], False)  # not complete
    assert await timelines.insert_many([(50, [USER])]) == 1  # a fan-out meanwhile
    await timelines.rebuild(USER, [10, 20, 30], complete=False)
    assert await timelines.read(USER, None, 10) == [50, 30, 20, 10]
    await timelines.rebuild(USER, [20, 40, 60], complete=False)  # merged, capped
    assert await timelines.read(USER, None, 10) == [60, 50, 40, 30]


async def test_a_rebuild_says_complete_only_when_this_rebuild_is(caches: Caches) -> None:
    timelines = caches.timelines(length=10)
    p10, p20, p30 = (1 << 30) + 10, (1 << 30) + 20, (1 << 30) + 30  # real IDs: past the marker
    await timelines.rebuild(USER, [p10, p20], complete=True)
    assert await timelines.read_page(USER, None, 10) == ([p20, p10], True)
    await timelines.rebuild(USER, [p30], complete=False)
    assert await timelines.read_page(USER, None, 10) == ([p30, p20, p10], False)
    await timelines.rebuild(USER, [], complete=True)
    assert await timelines.read_page(USER, None, 10) == ([p30, p20, p10], True)


async def test_hold_leaves_an_existing_timeline_as_it_is(caches: Caches) -> None:
    timelines = caches.timelines()
    await timelines.replace(USER, [1, 2])
    await timelines.hold(USER)
    assert await timelines.read(USER, None, 10) == [2, 1]
