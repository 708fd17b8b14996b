"""Contract: recent post IDs per author (AuthorTimelineStore), on every adapter."""

from __future__ import annotations

from tests.contract.conftest import Caches

AUTHOR, OTHER = 10, 11


async def test_only_cached_authors_are_returned(caches: Caches) -> None:
    authors = caches.author_timelines()
    await authors.replace(AUTHOR, [1, 2])
    await authors.replace(12, [])
    assert await authors.read_many([AUTHOR, OTHER, 12]) == {AUTHOR: [2, 1], 12: []}


async def test_replace_keeps_the_newest_ids_newest_first(caches: Caches) -> None:
    authors = caches.author_timelines(length=3)
    await authors.replace(AUTHOR, [4, 1, 5, 2, 4])
    assert await authors.read_many([AUTHOR]) == {AUTHOR: [5, 4, 2]}


async def test_a_new_post_is_pushed_only_onto_a_cached_author_timeline(caches: Caches) -> None:
    authors = caches.author_timelines(length=3)
    await authors.replace(AUTHOR, [1, 2, 3])
    await authors.push_if_present(AUTHOR, 4)
    await authors.push_if_present(AUTHOR, 4)
    await authors.push_if_present(OTHER, 4)
    assert await authors.read_many([AUTHOR, OTHER]) == {AUTHOR: [4, 3, 2]}


async def test_a_late_post_lands_in_order(caches: Caches) -> None:
    authors = caches.author_timelines()
    await authors.replace(AUTHOR, [1, 3])
    await authors.push_if_present(AUTHOR, 2)
    assert await authors.read_many([AUTHOR]) == {AUTHOR: [3, 2, 1]}


async def test_a_deleted_post_is_removed_and_the_author_stays_cached(caches: Caches) -> None:
    authors = caches.author_timelines()
    await authors.replace(AUTHOR, [1, 2])
    await authors.remove(AUTHOR, 2)
    assert await authors.read_many([AUTHOR]) == {AUTHOR: [1]}
    await authors.remove(AUTHOR, 1)
    assert await authors.read_many([AUTHOR]) == {AUTHOR: []}


async def test_push_many_pushes_each_post_onto_cached_author_timelines_only(
    caches: Caches,
) -> None:
    store = caches.author_timelines(length=3)
    await store.replace(1, [10])
    await store.push_many([(1, 30), (2, 31), (1, 20), (1, 40), (1, 30)])
    assert await store.read_many([1, 2]) == {1: [40, 30, 20]}


async def test_a_tags_list_and_an_authors_of_the_same_id_are_apart(caches: Caches) -> None:
    authors, tags = caches.author_timelines(), caches.tag_timelines(length=2)
    await authors.replace(AUTHOR, [1])
    await tags.replace(AUTHOR, [2, 3])
    await tags.push_many([(AUTHOR, 4), (OTHER, 5)])
    await tags.remove(AUTHOR, 3)
    assert await authors.read_many([AUTHOR, OTHER]) == {AUTHOR: [1]}
    assert await tags.read_many([AUTHOR, OTHER]) == {AUTHOR: [4]}
