from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedloom.domain.timeline import (
    PostRun,
    capped,
    in_chunks,
    merge_newest_first,
    newest,
    older_than,
)


def test_merge_interleaves_newest_first_and_drops_duplicates() -> None:
    merged = list(merge_newest_first([[9, 5, 1], [8, 5, 2], [], [10]]))
    assert merged == [10, 9, 8, 5, 2, 1]


@given(st.lists(st.sets(st.integers(1, 10_000)), max_size=8))
def test_merge_equals_sorting_the_union(sources: list[set[int]]) -> None:
    lists = [sorted(source, reverse=True) for source in sources]
    assert list(merge_newest_first(lists)) == sorted(set().union(*sources), reverse=True)


def test_capped_keeps_the_newest() -> None:
    assert capped([9, 9, 7, 5, 3], 3) == [9, 7, 5]


def test_older_than_is_strict() -> None:
    assert older_than([9, 7, 5], 7) == [5]
    assert older_than([9, 7, 5], None) == [9, 7, 5]


@given(st.lists(st.sets(st.integers(1, 10_000)), max_size=8), st.integers(0, 50))
def test_newest_is_the_capped_merge(sources: list[set[int]], count: int) -> None:
    lists = [sorted(source, reverse=True) for source in sources]
    assert newest(lists, count) == capped(merge_newest_first(lists), count)


def test_in_chunks_splits_runs_so_no_chunk_holds_more_than_its_size() -> None:
    runs = [(9, [1, 2, 3, 4, 5]), (7, []), (8, [6]), (3, [7, 8, 9, 10])]
    chunks = list(in_chunks(runs, 4))
    assert chunks == [[(9, [1, 2, 3, 4])], [(9, [5]), (8, [6]), (3, [7, 8])], [(3, [9, 10])]]
    assert [post for chunk in chunks for post, _ in chunk] == [9, 9, 8, 3, 3]  # in order
    assert list(in_chunks([], 4)) == []


@given(
    st.lists(st.tuples(st.integers(1, 50), st.lists(st.integers(1, 9), max_size=12))),
    st.integers(1, 10),
)
def test_in_chunks_keeps_every_insert_once_in_order(runs: list[PostRun], size: int) -> None:
    chunks = list(in_chunks(runs, size))
    assert all(0 < sum(len(owners) for _, owners in chunk) <= size for chunk in chunks)
    inserts = [(post, owner) for chunk in chunks for post, owners in chunk for owner in owners]
    assert inserts == [(post, owner) for post, owners in runs for owner in owners]
